// Issue 16, second pass: the ways around the first fixes that a probe would try next (form-encoded
// auth bodies, WebSocket handshakes, the auth library's own routes), the parts of rows 9, 12 and
// 13 the first tests did not reach, and the rule that every 500 is logged once and answered with
// the generic message. Real HTTP against a running server throughout.
import http from 'node:http';
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../test-support/test-server';
import { messages } from '../../shared/messages';
import { limitKey } from './client-address';

const PASSWORD = 'correct-horse-1';
let server: TestServer;

/**
 * Time at a thousandth of real speed: a 1 s sign-in back-off lasts ~17 real minutes, so a loaded
 * machine cannot let it expire between two requests of a test (which would make a 429 a 401).
 */
function slowClock() {
  const start = Date.now();
  return { now: () => new Date(start + (Date.now() - start) / 1000) };
}

beforeAll(async () => {
  server = await startTestServer({
    env: { SIGN_IN_FAILURES_BEFORE_BACKOFF: '2', EVENT_STREAMS_PER_CLIENT: '2', TRUSTED_PROXIES: '127.0.0.1' },
    clock: slowClock(),
  });
});
afterAll(() => server.close());

async function createPersonality(client: TestClient, name = 'Ada'): Promise<string> {
  const res = await client.post('/api/personalities', { name });
  expect(res.status).toBe(201);
  return res.body.personality?.id ?? res.body.id;
}

const formPost = (client: TestClient, path: string, fields: string, headers: Record<string, string> = {}) =>
  client.request('POST', path, fields, { 'content-type': 'application/x-www-form-urlencoded', ...headers });

/** One request on a keep-alive agent; a reset or any socket error rejects. */
function send(agent: http.Agent, base: URL, method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; connection?: string }>((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method, path, agent, headers: { origin: base.origin, ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

describe('auth bodies the auth library also accepts (form-encoded)', () => {
  it('row 1: a form-encoded sign-in counts toward the same back-off as JSON', async () => {
    const victim = await server.user(undefined, PASSWORD);
    const body = `email=${encodeURIComponent(victim.email.toUpperCase())}&password=wrong-password`;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await formPost(server.client(), '/api/auth/sign-in/email', body, { 'x-forwarded-for': '203.0.113.40' })).status);
    expect(statuses).toEqual([401, 401, 429]);
    // Switching back to JSON does not reset the pair's count.
    const json = await server.client().request('POST', '/api/auth/sign-in/email', { email: victim.email, password: 'wrong-password' }, { 'x-forwarded-for': '203.0.113.40' });
    expect(json.status).toBe(429);
  });

  it('row 7: a NUL in a form-encoded sign-up is a 400 and stores no account', async () => {
    const email = await formPost(server.client(), '/api/auth/sign-up/email', `email=form-nul%00@example.com&password=${PASSWORD}&name=x`);
    expect(email.status).toBe(400);
    expect(email.body.error.message).toBe(messages.errors.unstorableText);
    const name = await formPost(server.client(), '/api/auth/sign-up/email', `email=form-name@example.com&password=${PASSWORD}&name=a%00b`);
    expect(name.status).toBe(400);
    const rows = await server.database.db.execute(sql`select count(*)::int as n from "user" where email like 'form-%'`);
    expect(Number((rows as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
  });
});

describe('row 3 beyond the app routes', () => {
  it('the auth library refuses another origin too: profile and session unchanged', async () => {
    const user = await server.user(undefined, PASSWORD, 'Original Name');
    const elsewhere = `http://127.0.0.1:${Number(new URL(server.url).port) + 1}`;
    expect((await user.request('POST', '/api/auth/update-user', { name: 'Planted' }, { origin: elsewhere })).status).toBe(403);
    const viaReferer = await user.raw('/api/auth/update-user', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: '', referer: `${elsewhere}/attack.html` },
      body: JSON.stringify({ name: 'Planted' }),
    });
    expect(viaReferer.status).toBe(403);
    expect((await user.request('POST', '/api/auth/sign-out', {}, { origin: elsewhere })).status).toBe(403);
    const me = await user.get('/api/me');
    expect(me.body.user.displayName).toBe('Original Name');
  });

  it('a WebSocket handshake from another origin is refused like a write (voice sockets included)', async () => {
    const user = await server.user();
    const base = new URL(server.url);
    const cookie = [...user.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const agent = new http.Agent();
    try {
      const upgradeHeaders = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', cookie };
      const foreign = await send(agent, base, 'GET', '/api/personalities', undefined, { ...upgradeHeaders, origin: `http://127.0.0.1:${Number(base.port) + 1}` });
      expect(foreign.status).toBe(403);
      const own = await send(agent, base, 'GET', '/api/personalities', undefined, { ...upgradeHeaders, origin: base.origin });
      expect(own.status).not.toBe(403);
      // A plain cross-origin GET (a link, an image) is still answered: reads change nothing.
      expect((await send(agent, base, 'GET', '/api/health', undefined, { origin: 'http://127.0.0.1:1' })).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('row 9: keep-alive clients after an early refusal', () => {
  it('no reset on the next request after a 413, an early 401 and a 403', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const base = new URL(server.url);
    const json = { 'content-type': 'application/json' };
    try {
      const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
      const refusals = [
        await send(agent, base, 'POST', '/api/personalities', big, json), // 413, body far past the limit
        // 401 before a byte of a 1 MB upload is read (who is asking is settled first)
        await send(agent, base, 'POST', `/api/personalities/${crypto.randomUUID()}/documents`, Buffer.alloc(1024 * 1024, 'a'), {
          'content-type': 'multipart/form-data; boundary=x',
        }),
        await send(agent, base, 'POST', '/api/personalities', JSON.stringify({ name: 'z'.repeat(200_000) }), { ...json, origin: 'http://127.0.0.1:1' }), // 403
      ];
      expect(refusals.map((r) => r.status)).toEqual([413, 401, 403]);
      expect(refusals[0]!.connection).toBe('close');
      for (let i = 0; i < 3; i++) expect((await send(agent, base, 'GET', '/api/health')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('rows 12 and 13: document event streams', () => {
  async function openStream(client: TestClient, id: string, address?: string) {
    return client.raw(`/api/personalities/${id}/documents/events`, {
      headers: { accept: 'text/event-stream', ...(address ? { 'x-forwarded-for': address } : {}) },
    });
  }

  it('row 12: signing out ends a stream opened before', async () => {
    const owner = await server.user(undefined, PASSWORD);
    const id = await createPersonality(owner);
    const stream = await openStream(owner, id);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('event: documents')) seen += decoder.decode((await reader.read()).value);
    expect((await owner.post('/api/auth/sign-out', {})).status).toBe(200);
    const ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        seen += decoder.decode(value);
      }
    })();
    expect(await Promise.race([ended, new Promise<string>((r) => setTimeout(() => r('still open'), 10_000))])).toBe('ended');
    expect(seen).toContain('event: signed-out');
  });

  it('row 13: streams are capped per client address across accounts, 429 with the message', async () => {
    const first = await server.user();
    const second = await server.user();
    const a = await createPersonality(first);
    const b = await createPersonality(second);
    const held = [await openStream(first, a, '198.51.100.70'), await openStream(first, a, '198.51.100.70')];
    expect(held.map((r) => r.status)).toEqual([200, 200]);
    // Another account from the same address is past the address's cap...
    const refused = await openStream(second, b, '198.51.100.70');
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toBe(messages.errors.tooManyStreams);
    // ...and the same account from elsewhere is past its own.
    expect((await openStream(first, a, '198.51.100.71')).status).toBe(429);
    const elsewhere = await openStream(second, b, '198.51.100.71');
    expect(elsewhere.status).toBe(200);
    for (const r of [...held, elsewhere]) await r.body!.cancel();
  });
});

describe('IPv6 clients are limited by their /64 network', () => {
  it('reads the /64 of every IPv6 spelling, and leaves IPv4 whole', () => {
    expect(limitKey('2001:db8:1:1::5')).toBe('2001:db8:1:1::/64');
    expect(limitKey('2001:0db8:0001:0001:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:1::/64');
    expect(limitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limitKey('::1')).toBe('0:0:0:0::/64');
    expect(limitKey('198.51.100.7')).toBe('198.51.100.7');
    expect(limitKey(null)).toBe('unknown');
  });

  it('addresses of one /64 share its allowance (each address got a fresh one); another /64 has its own', async () => {
    const people = [await server.user(), await server.user(), await server.user(), await server.user()];
    const ids = await Promise.all(people.map((p) => createPersonality(p)));
    const open = (i: number, address: string) =>
      people[i]!.raw(`/api/personalities/${ids[i]}/documents/events`, { headers: { accept: 'text/event-stream', 'x-forwarded-for': address } });
    const held = [await open(0, '2001:db8:7:7::1'), await open(1, '2001:db8:7:7::2')];
    expect(held.map((r) => r.status)).toEqual([200, 200]);
    expect((await open(2, '2001:db8:7:7:ffff::3')).status).toBe(429);
    const neighbour = await open(3, '2001:db8:7:8::1');
    expect(neighbour.status).toBe(200);
    for (const r of [...held, neighbour]) await r.body!.cancel();
  });
});

describe('row 4: limited calls are visible to admins', () => {
  it('chat use is counted in api_rate_limits with the user and the client address', async () => {
    const user = await server.user();
    const id = await createPersonality(user);
    expect((await user.request('POST', `/api/personalities/${id}/chat`, { message: 'hello' }, { 'x-forwarded-for': '198.51.100.90' })).status).toBe(200);
    const rows = (await server.database.db.execute(
      sql`select endpoint, request_count, user_id, ip_address from api_rate_limits where user_id = ${user.id} and endpoint = 'chat'`,
    )) as unknown as { rows: { endpoint: string; request_count: number; user_id: string; ip_address: string }[] };
    expect(rows.rows).toEqual([{ endpoint: 'chat', request_count: 1, user_id: user.id, ip_address: '198.51.100.90' }]);
  });
});

describe('every 500: logged once with its cause, answered with the generic message', () => {
  it('an app route', async () => {
    const user = await server.user();
    await server.database.db.execute(sql`alter table personalities rename to personalities_gone`);
    const mark = server.logs.length;
    try {
      const res = await user.get('/api/personalities');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: { code: 'INTERNAL', message: messages.generic } });
    } finally {
      await server.database.db.execute(sql`alter table personalities_gone rename to personalities`);
    }
    const errors = server.logs.slice(mark).filter((l) => / ERROR /.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/GET \/api\/personalities/);
    expect(errors[0]).toMatch(/does not exist/);
  });

  it('an auth library route: no empty body, no internals, no session token in the log', async () => {
    const user = await server.user();
    const token = decodeURIComponent([...user.cookies].find(([k]) => k.includes('session_token'))![1]).split('.')[0]!;
    await server.database.db.execute(sql`alter table "session" rename to session_gone`);
    const mark = server.logs.length;
    try {
      const res = await user.get('/api/auth/get-session');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: { code: 'INTERNAL', message: messages.generic } });
    } finally {
      await server.database.db.execute(sql`alter table session_gone rename to "session"`);
    }
    const logged = server.logs.slice(mark).join('\n');
    expect(logged).toMatch(/auth request failed: GET \/api\/auth\/get-session/);
    expect(logged).toMatch(/does not exist/);
    expect(logged).not.toContain(token);
  });
});
