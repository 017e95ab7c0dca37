// A tiny round-robin HTTP proxy in front of several app processes, for the local multi-process
// setup and its tests (a real deployment uses Caddy or nginx: deploy/). It streams both ways (Server-Sent Events and
// large uploads pass through untouched), passes WebSocket upgrades on as raw sockets, appends
// X-Forwarded-For (so the apps, with TRUSTED_PROXIES=127.0.0.1, see the client's address), skips a
// backend marked down, and names the backend that answered in X-Kindred-Backend. A request may pin
// a backend with the same header (tests use it to say "this on A, that on B").
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Backend {
  host: string;
  port: number;
  /** False once the process is known to be gone: requests skip it. */
  up: boolean;
}

export interface RoundRobinProxy {
  url: string;
  port: number;
  backends: Backend[];
  close(): Promise<void>;
}

export const BACKEND_HEADER = 'x-kindred-backend';

export async function startRoundRobinProxy(backends: Backend[], port = 0): Promise<RoundRobinProxy> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  const sockets = new Set<net.Socket>();

  function choose(pin: string | string[] | undefined): number | undefined {
    if (typeof pin === 'string' && /^\d+$/.test(pin) && backends[Number(pin)]?.up) return Number(pin);
    for (let i = 0; i < backends.length; i++) {
      const n = (next + i) % backends.length;
      if (backends[n]!.up) {
        next = n + 1;
        return n;
      }
    }
    return undefined;
  }

  function forwardedFor(req: http.IncomingMessage): string {
    const prior = req.headers['x-forwarded-for'];
    const addr = req.socket.remoteAddress ?? '';
    return prior ? `${prior}, ${addr}` : addr;
  }

  const server = http.createServer((req, res) => {
    const n = choose(req.headers[BACKEND_HEADER]);
    if (n === undefined) return void res.writeHead(502).end('no backend is up');
    const b = backends[n]!;
    const headers: http.OutgoingHttpHeaders = { ...req.headers, 'x-forwarded-for': forwardedFor(req) };
    delete headers[BACKEND_HEADER];
    const upstream = http.request({ host: b.host, port: b.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, [BACKEND_HEADER]: String(n) });
      res.flushHeaders(); // an event stream's headers go out before its first event
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end('backend unreachable');
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });

  // WebSocket (and any other upgrade): replay the request head to the backend, then splice.
  server.on('upgrade', (req, client, head) => {
    const n = choose(req.headers[BACKEND_HEADER]);
    if (n === undefined) return void client.destroy();
    const b = backends[n]!;
    const upstream = net.connect(b.port, b.host, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        if (name.toLowerCase() === 'x-forwarded-for' || name.toLowerCase() === BACKEND_HEADER) continue;
        lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
      }
      lines.push(`X-Forwarded-For: ${forwardedFor(req)}`);
      upstream.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', end);
    client.on('error', end);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    backends,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
