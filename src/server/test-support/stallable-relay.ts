// A TCP relay to PostgreSQL for tests of a database (or a path to it) that stops answering.
import net from 'node:net';

/**
 * A TCP relay to PostgreSQL that can stall (both ways) while keeping connections open. What is sent
 * meanwhile is held and delivered when it heals, as TCP does once a paused host or a broken path
 * comes back.
 */
export async function stallableRelay(target: URL) {
  let stalled = false;
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    const relay = (to: net.Socket) => (d: Buffer) => {
      const send = () => void (to.destroyed || to.write(d));
      if (stalled) held.push(send);
      else send();
    };
    client.on('data', relay(upstream));
    upstream.on('data', relay(client));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: (databaseUrl: string) => {
      const u = new URL(databaseUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    stall: (on: boolean) => {
      stalled = on;
      if (!on) for (const send of held.splice(0)) send();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
