// The lower bound for the first-token benchmark: a thin proxy that forwards a request to the
// model server and streams the answer back, nothing else (what a browser-side prompt builder such
// as SillyTavern's needs from its server). Kindred's figures are printed as a ratio to this.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startThinProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const base = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: `${base.pathname.replace(/\/$/, '')}${req.url}`,
        headers: { ...req.headers, host: base.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.close(() => r());
      }),
  };
}
