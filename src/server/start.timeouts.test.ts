// The HTTP server's own timeouts: a client that never finishes its headers is dropped soon
// (headersTimeout), while nothing cuts a connection for being quiet (streamed replies and event
// streams can be silent for long stretches; uploads on slow links take minutes).
import http, { type Server } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer } from './test-support/test-server';

// The server's own http.Server, caught as it starts listening (it is not part of RunningServer).
// A spy on node:http's prototype, not a mock of the module that creates it: the suite shares
// loaded modules between files, so a module mock could come too late.
const created: Server[] = [];
const listen = vi.spyOn(http.Server.prototype, 'listen');
let close: (() => Promise<void>) | undefined;
let url = '';

beforeAll(async () => {
  const server = await startTestServer();
  created.push(...listen.mock.contexts.map((c) => c as Server).filter((c) => (c.address() as net.AddressInfo | null)?.port === server.port));
  listen.mockRestore();
  url = server.url;
  close = () => server.close();
});
afterAll(async () => {
  await close?.();
});

describe('the HTTP server', () => {
  it('drops a client that has not finished its headers within 30 seconds', () => {
    const server = created[0]!;
    expect(server.headersTimeout).toBeGreaterThan(0);
    expect(server.headersTimeout).toBeLessThanOrEqual(30_000);
  });

  it('keeps an idle kept-alive connection open past Node\'s 5 s, so the client, not the server, closes it', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    // reusedSocket: the request went out on the connection the previous one left open.
    const get = () =>
      new Promise<boolean>((resolve, reject) => {
        const req = http.get(`${url}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve(req.reusedSocket) : reject(new Error(`status ${res.statusCode}`))));
        });
        req.on('error', reject);
      });
    try {
      expect(await get()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await get()).toBe(true);
    } finally {
      agent.destroy();
    }
    expect(created[0]!.keepAliveTimeout).toBeGreaterThan(60_000);
  });

  it('gives a whole request (an upload on a slow link) minutes, and never cuts a quiet connection', () => {
    const server = created[0]!;
    expect(server.requestTimeout).toBeGreaterThanOrEqual(5 * 60_000);
    expect(server.timeout).toBe(0);
  });

  it('stops without waiting on a connection that never sent a request: once the reply grace is over it is closed', async () => {
    // Browsers open spare connections ahead of need (Chromium preconnects; fetch's pool did in
    // voice.turn.test). Node counts one that has sent nothing as busy, not idle, so close() waited
    // for it until headersTimeout. That timeout is raised to 10 minutes here, so a close() that
    // waited for it would outlast this test's limit by far, while a slow machine (starting a
    // server took most of the old 20 s limit in a loaded CI run) does not.
    const spy = vi.spyOn(http.Server.prototype, 'listen');
    const own = await startTestServer();
    const ownServer = spy.mock.contexts.map((c) => c as Server).find((c) => (c.address() as net.AddressInfo | null)?.port === own.port)!;
    spy.mockRestore();
    ownServer.headersTimeout = 10 * 60_000;
    ownServer.requestTimeout = 0;
    const socket = net.connect(own.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await own.close();
    await closed;
    expect(socket.bytesRead).toBe(0);
  }, 90_000);
});
