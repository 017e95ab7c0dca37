// The app's outer shell: health, the OpenAPI document, JSON errors for unknown routes, 413 for
// oversized bodies (sent before the body is read whole) and the Origin check on auth.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-support/test-server';
import { limits } from '../shared/limits';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('health and documentation', () => {
  it('GET /api/health reports the database and vector support', async () => {
    const res = await server.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
      vector: server.database.hasVector,
      // How vectors are kept: pgvector where the server has it, else float32 scored in the app.
      vectorStore: server.database.hasVector ? 'pgvector' : 'bytea',
    });
  });

  it('GET /api/health answers 503 when the database does not answer, so a load balancer stops sending people there', async () => {
    const broken = await startTestServer();
    try {
      await broken.database.close();
      const res = await broken.client().get('/api/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ ok: false, error: 'The database does not answer' });
    } finally {
      await broken.close().catch(() => {});
    }
  });

  it('sends a strict CSP: same-origin connections only when no ElevenLabs agents are configured', async () => {
    const res = await server.client().raw('/api/health');
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self';");
  });

  it('GET /api/openapi.json lists the routes', async () => {
    const res = await server.client().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/api/personalities'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/personalities/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    expect(paths['/api/me']?.get).toBeDefined();
    expect(paths['/api/feedback']?.post).toBeDefined();
  });

  it('the OpenAPI document lists every API route the app answers, the hand-read ones (voice, cards, events) included', async () => {
    const paths = (await server.client().get('/api/openapi.json')).body.paths as Record<string, Record<string, unknown>>;
    const documented = new Set(Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`)));
    const answered = new Set(
      server.routes
        // Middleware, catch-alls, the auth library's own routes and the document itself.
        .filter(({ method, path }) => method !== 'ALL' && path.startsWith('/api/') && !path.includes('*') && !path.startsWith('/api/auth/') && path !== '/api/openapi.json')
        .map(({ method, path }) => `${method} ${path.replace(/:(\w+)(\{[^}]*\})?\??/g, '{$1}')}`),
    );
    expect(answered.size).toBeGreaterThan(60);
    expect([...answered].filter((route) => !documented.has(route))).toEqual([]);
    expect(paths['/api/personalities/{id}/voice/turn']?.post).toMatchObject({ responses: { 200: { content: { 'application/x-ndjson': {} } } } });
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['PUT', '/api/personalities'],
    ['DELETE', '/api/personalities'],
    ['GET', '/api/personalities/a/b/c'],
    ['GET', '/api/auth/nope'],
    ['POST', '/api/auth/nope'],
    ['PUT', '/api/auth/sign-in/email'],
  ])('%s %s is a JSON 404', async (method, path) => {
    const res = await server.client().request(method, path, method === 'GET' ? undefined : {});
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('answers a non-API path with 404 when no web build is served', async () => {
    const res = await server.client().get('/some/page');
    expect(res.status).toBe(404);
  });
});

/** Sends a request whose body never ends; resolves with the status the server answers meanwhile. */
function statusBeforeBodyEnds(path: string, headers: Record<string, string>, sendBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url + path);
    const req = http.request({ host: url.hostname, port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    req.on('response', (res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    // The server may close the connection while we are still writing: that is expected.
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < sendBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      // Deliberately never req.end(): an answer can only come before the body is complete.
    };
    pump();
  });
}

describe('oversized bodies', () => {
  it('answers 413 from the declared length of a 5 MB body without waiting for it', async () => {
    const status = await statusBeforeBodyEnds('/api/feedback', { 'content-length': String(5 * 1024 * 1024) }, 64 * 1024);
    expect(status).toBe(413);
  });

  it('answers 413 to a chunked body once it passes the limit, before it ends', async () => {
    const status = await statusBeforeBodyEnds('/api/personalities', { 'transfer-encoding': 'chunked' }, limits.jsonBodyMaxBytes + 128 * 1024);
    expect(status).toBe(413);
  });

  it('answers a complete 5 MB JSON body with a JSON 413', async () => {
    const user = await server.user();
    const res = await user.post('/api/personalities', { name: 'Big', description: 'x'.repeat(5 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large' } });
    // The server is still fine afterwards.
    expect((await user.get('/api/personalities')).status).toBe(200);
  });
});

describe('cross-site requests', () => {
  it('refuses an auth request from another origin', async () => {
    const user = await server.user();
    const client = server.client();
    const res = await client.request('POST', '/api/auth/sign-in/email', { email: user.email, password: 'secret-pass' }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(client.cookies.size).toBe(0);
  });
});
