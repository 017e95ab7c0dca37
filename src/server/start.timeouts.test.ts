// The HTTP server's own timeouts: a client that never finishes its headers is dropped soon
// (headersTimeout), while nothing cuts a connection for being quiet (streamed replies and event
// streams can be silent for long stretches; uploads on slow links take minutes).
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const created: Server[] = [];
vi.mock('@hono/node-server', async (importOriginal) => {
  const real = await importOriginal<typeof import('@hono/node-server')>();
  return {
    ...real,
    serve: (...args: Parameters<typeof real.serve>) => {
      const server = real.serve(...args);
      created.push(server as Server);
      return server;
    },
  };
});

const { startTestServer } = await import('./test-support/test-server');
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const server = await startTestServer();
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

  it('gives a whole request (an upload on a slow link) minutes, and never cuts a quiet connection', () => {
    const server = created[0]!;
    expect(server.requestTimeout).toBeGreaterThanOrEqual(5 * 60_000);
    expect(server.timeout).toBe(0);
  });
});
