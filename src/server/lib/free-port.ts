// A port free on loopback right now (the OS picks it; the caller binds it a moment later): for
// tests, benchmarks and the local multi-process setup, which start servers on unused ports.
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
