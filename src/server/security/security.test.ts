// The outside probe's findings (issue 16), each through real HTTP against a running server.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../test-support/test-server';

const PASSWORD = 'correct-horse-1';

/**
 * Time at a thousandth of real speed: a 1 s sign-in back-off lasts ~17 real minutes, so a loaded
 * machine cannot let it expire between two requests of a test (which would make a 429 a 401).
 */
function slowClock() {
  const start = Date.now();
  return { now: () => new Date(start + (Date.now() - start) / 1000) };
}

async function createPersonality(client: TestClient, name = 'Ada'): Promise<string> {
  const res = await client.post('/api/personalities', { name });
  expect(res.status).toBe(201);
  return res.body.personality?.id ?? res.body.id;
}

describe('sign-in limits (rows 1 and 2)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { SIGN_IN_FAILURES_BEFORE_BACKOFF: '3', SIGN_IN_FAILURES_PER_ACCOUNT: '6', RATE_LIMIT_AUTH_PER_15MIN: '1000', TRUSTED_PROXIES: '127.0.0.1' },
      clock: slowClock(),
    });
  });
  afterAll(() => server.close());

  const signInFrom = (client: TestClient, address: string, email: string, password: string) =>
    client.request('POST', '/api/auth/sign-in/email', { email, password }, { 'x-forwarded-for': address });

  it('backs off per account and address, whatever session cookie the attacker brings', async () => {
    const victim = await server.user();
    const attacker = await server.user(); // signed in: the old limiter gave them a budget of their own
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await signInFrom(attacker, '203.0.113.7', victim.email, 'wrong-password')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await signInFrom(attacker, '203.0.113.7', victim.email, 'wrong-password');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(blocked.body.error.message).toMatch(/Too many failed sign-in attempts/);
    // A fresh account or cookie changes nothing: the pair is what is limited.
    const other = server.client();
    expect((await signInFrom(other, '203.0.113.7', victim.email, 'wrong-password')).status).toBe(429);
  });

  it('sent all at once, wrong passwords are judged one after another: the back-off still starts after three', async () => {
    const victim = await server.user(undefined, PASSWORD);
    const attempts = Array.from({ length: 20 }, () => signInFrom(server.client(), '203.0.113.20', victim.email, 'wrong-password'));
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it('an account attacked from many addresses stays open to its owner from an address it signed in from', async () => {
    const victim = await server.user(undefined, PASSWORD);
    // The owner signed in from home before the attack.
    expect((await signInFrom(server.client(), '198.51.100.10', victim.email, PASSWORD)).status).toBe(200);
    // Six addresses, one wrong password each: the account's budget is spent.
    for (let i = 1; i <= 6; i++) expect((await signInFrom(server.client(), `192.0.2.${i}`, victim.email, 'nope-nope')).status).toBe(401);
    // A new address is now refused, even with the right password...
    expect((await signInFrom(server.client(), '192.0.2.99', victim.email, PASSWORD)).status).toBe(429);
    // ...but the owner at home is not locked out.
    expect((await signInFrom(server.client(), '198.51.100.10', victim.email, PASSWORD)).status).toBe(200);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const strict = await startTestServer({ env: { SIGN_IN_FAILURES_BEFORE_BACKOFF: '2', SIGN_IN_FAILURES_PER_ACCOUNT: '1000' }, clock: slowClock() });
    try {
      const victim = await strict.user();
      // No TRUSTED_PROXIES: each "address" below is the same socket address, so the pair backs off.
      const statuses: number[] = [];
      for (let i = 1; i <= 3; i++) {
        const res = await strict.client().request('POST', '/api/auth/sign-in/email', { email: victim.email, password: 'x-wrong-1' }, { 'x-forwarded-for': `192.0.2.${i}` });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await strict.close();
    }
  }, 90_000);
});

describe('request rules', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        RATE_LIMIT_CHAT_PER_MINUTE: '3',
        RATE_LIMIT_URL_IMPORT_PER_HOUR: '1',
        RATE_LIMIT_UPLOADS_PER_HOUR: '3',
        RATE_LIMIT_REPROCESS_PER_HOUR: '2',
        RATE_LIMIT_VERIFICATION_EMAIL_PER_HOUR: '2',
        EVENT_STREAMS_PER_CLIENT: '2',
        TRUSTED_PROXIES: '127.0.0.1',
      },
      clock: slowClock(), // no window boundary falls inside a test
    });
  });
  afterAll(() => server.close());

  it('row 3: refuses writes whose Origin or Referer is another origin (another port of this host too), and changes nothing', async () => {
    const owner = await server.user();
    const port = Number(new URL(server.url).port);
    const elsewhere = `http://127.0.0.1:${port + 1}`;
    const fromOrigin = await owner.request('POST', '/api/personalities', { name: 'Planted' }, { origin: elsewhere });
    expect(fromOrigin.status).toBe(403);
    const raw = await owner.raw('/api/personalities', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: '', referer: `${elsewhere}/page.html` },
      body: JSON.stringify({ name: 'Planted' }),
    });
    expect(raw.status).toBe(403);
    const nullOrigin = await owner.request('POST', '/api/personalities', { name: 'Planted' }, { origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    const list = await owner.get('/api/personalities');
    expect(JSON.stringify(list.body)).not.toContain('Planted');
    // The app's own origin writes as before.
    expect((await owner.post('/api/personalities', { name: 'Mine' })).status).toBe(201);
  });

  it('row 4: chat, preview and URL import are limited per user, with Retry-After and a message', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await owner.post(`/api/personalities/${id}/chat`, { message: `hello ${i}` })).status);
    statuses.push((await owner.post(`/api/personalities/${id}/chat/preview`, { message: 'preview' })).status);
    const limited = await owner.post(`/api/personalities/${id}/chat`, { message: 'one more' });
    expect(statuses).toEqual([200, 200, 200]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.error.message).toBe('Too many requests. Please wait a few minutes before trying again.');
    // The chat counts its hit beside its reads (rateLimitBeside), but a refused message is never
    // answered or kept: no conversation and no logged question carry it.
    const kept = JSON.stringify([(await owner.get(`/api/personalities/${id}/conversations`)).body, (await owner.get(`/api/personalities/${id}/questions`)).body]);
    expect(kept).toContain('hello 1');
    expect(kept).not.toContain('one more');
    // Another person is not affected by this one's use.
    const other = await server.user();
    const theirs = await createPersonality(other);
    expect((await other.post(`/api/personalities/${theirs}/chat`, { message: 'hi' })).status).toBe(200);

    const first = await owner.post(`/api/personalities/${id}/documents/url`, { url: 'http://127.0.0.1:9/nothing' });
    expect(first.status).not.toBe(429);
    const second = await owner.post(`/api/personalities/${id}/documents/url`, { url: 'http://127.0.0.1:9/nothing' });
    expect(second.status).toBe(429);
  });

  it('uploads (documents, recordings, character cards) share one hourly budget per person', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner);
    const upload = (path: string, field: string, name: string, body: string) => {
      const form = new FormData();
      form.append(field, new Blob([body]), name);
      return owner.raw(path, { method: 'POST', body: form });
    };
    expect((await upload(`/api/personalities/${id}/documents`, 'files', 'a.txt', 'First notes.')).status).toBe(200);
    expect((await upload('/api/personalities/import/preview', 'file', 'card.json', '{}')).status).toBe(400);
    expect((await upload(`/api/personalities/${id}/documents`, 'files', 'b.txt', 'Second notes.')).status).toBe(200);
    const refused = await upload(`/api/personalities/${id}/documents`, 'files', 'c.txt', 'Third notes.');
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toBe('Too many requests. Please wait a few minutes before trying again.');
    expect((await upload('/api/personalities/import', 'file', 'card.json', '{}')).status).toBe(429);
    const listed = await owner.get(`/api/personalities/${id}/documents`);
    expect(listed.body.documents.map((d: { fileName: string }) => d.fileName).sort()).toEqual(['a.txt', 'b.txt']);
    // Someone else still uploads.
    const other = await server.user();
    const theirs = await createPersonality(other);
    const form = new FormData();
    form.append('files', new Blob(['Mine.']), 'mine.txt');
    expect((await other.raw(`/api/personalities/${theirs}/documents`, { method: 'POST', body: form })).status).toBe(200);
  });

  it("Process and Rechunk, which redo a document's paid work, share an hourly budget per person", async () => {
    const owner = await server.user();
    const id = await createPersonality(owner);
    const form = new FormData();
    form.append('files', new Blob(['Notes worth embedding.']), 'notes.txt');
    const uploaded = await owner.raw(`/api/personalities/${id}/documents`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(200);
    const documentId = (await uploaded.json()).results[0].document.id as string;
    const again = (what: 'process' | 'rechunk') => owner.request('POST', `/api/personalities/${id}/documents/${documentId}/${what}`, {});
    expect((await again('rechunk')).status).not.toBe(429);
    expect((await again('process')).status).not.toBe(429);
    const refused = await again('rechunk');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe('Too many requests. Please wait a few minutes before trying again.');
    expect((await again('process')).status).toBe(429);
  });

  it('rows 5 and 6: deleting questions takes only a real ISO date', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner);
    for (const bad of ['99999-01-01', 'hello 1', '2025-02-31', '2025-13-01', '1 2025-01-01', '2025-01-01T25:00']) {
      const res = await owner.delete(`/api/personalities/${id}/questions?before=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.message).toBe('Please select a date');
    }
    for (const good of ['2025-01-01', '2025-01-01T10:00:00Z', '2025-01-01T10:00:00.123+02:00']) {
      const res = await owner.delete(`/api/personalities/${id}/questions?before=${encodeURIComponent(good)}`);
      expect(res.status, good).toBe(200);
    }
    expect(server.logs.join('\n')).not.toMatch(/Failed query/);
  });

  it('rows 7 and 8: NUL or broken text in a JSON body is a 400 and stores nothing', async () => {
    const visitor = server.client();
    const signUp = await visitor.request('POST', '/api/auth/sign-up/email', { email: 'nul\u0000@example.com', password: PASSWORD, name: 'x' });
    expect(signUp.status).toBe(400);
    expect(signUp.body.error.message).toMatch(/cannot be saved/);
    const lone = await visitor.request('POST', '/api/auth/sign-up/email', '{"email":"a\\ud800@example.com","password":"correct-horse-1"}');
    expect(lone.status).toBe(400);
    const notUtf8 = await visitor.raw('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xc3, 0x28]), Buffer.from('@example.com","password":"correct-horse-1"}')]),
    });
    expect(notUtf8.status).toBe(400);

    const user = await server.user(undefined, PASSWORD, 'Original Name');
    const update = await user.request('POST', '/api/auth/update-user', { name: 'a\u0000b' });
    expect(update.status).toBe(400);
    const me = await user.get('/api/me');
    expect(me.body.user.displayName).toBe('Original Name');
    // Personalities too: one rule for every JSON route.
    expect((await user.post('/api/personalities', { name: 'Ada\u0000' })).status).toBe(400);
  });

  it('row 9: after a 413 a keep-alive client carries on without a reset', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(server.url);
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const req = http.request(
          { host: url.hostname, port: url.port, method, path, agent, headers: { 'content-type': 'application/json', origin: url.origin } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          },
        );
        req.on('error', reject);
        if (body) req.write(body);
        req.end();
      });
    try {
      const big = JSON.stringify({ name: 'x'.repeat(600 * 1024) });
      const tooLarge = await send('POST', '/api/feedback', big);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.connection).toBe('close');
      for (let i = 0; i < 3; i++) expect((await send('GET', '/api/health')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('row 10: verification e-mails are limited per address and per target e-mail', async () => {
    const target = `target-${Date.now()}@example.com`;
    const from = (address: string, email = target) =>
      server.client().request('POST', '/api/auth/send-verification-email', { email }, { 'x-forwarded-for': address });
    expect((await from('192.0.2.50')).status).not.toBe(429);
    expect((await from('192.0.2.50', `other-${Date.now()}@example.com`)).status).not.toBe(429);
    expect((await from('192.0.2.50', `third-${Date.now()}@example.com`)).status).toBe(429); // the address is spent
    expect((await from('192.0.2.51')).status).not.toBe(429);
    expect((await from('192.0.2.52')).status).toBe(429); // the target e-mail is spent, from any address
  });

  it('rows 11 and 12: changing the password signs other sessions out, and their event streams end', async () => {
    const phone = await server.user(undefined, PASSWORD);
    const laptop = server.client();
    expect((await laptop.signIn(phone.email, PASSWORD)).status).toBe(200);
    const id = await createPersonality(laptop);
    const stream = await laptop.raw(`/api/personalities/${id}/documents/events`, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('event: documents')) seen += decoder.decode((await reader.read()).value);

    const change = await phone.post('/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a-new-password-2' });
    expect(change.status).toBe(200);
    expect((await laptop.get('/api/me')).body.user).toBeNull();
    expect((await phone.get('/api/me')).body.user?.email).toBe(phone.email);

    // The stream opened before ends within a few polls.
    const ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return seen;
        seen += decoder.decode(value);
      }
    })();
    const outcome = await Promise.race([ended, new Promise<string>((r) => setTimeout(() => r('still open'), 10_000))]);
    expect(outcome).not.toBe('still open');
    expect(seen).toContain('event: signed-out');
  });

  it('a change-password body nested thousands of levels deep is a 400, not a 500', async () => {
    const account = await server.user(undefined, PASSWORD);
    const deep = `{"currentPassword":"${PASSWORD}","newPassword":"a-new-password-3","x":${'['.repeat(20000)}${']'.repeat(20000)}}`;
    const res = await account.raw('/api/auth/change-password', { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
    expect(res.status).toBe(400);
    expect((await account.get('/api/me')).body.user?.email).toBe(account.email);
  });

  it('row 13: one client may hold only so many event streams', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner);
    const open = async () => owner.raw(`/api/personalities/${id}/documents/events`, { headers: { accept: 'text/event-stream' } });
    const a = await open();
    const b = await open();
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await open();
    expect(c.status).toBe(429);
    await a.body!.cancel();
    // Closing one frees its place.
    await expect.poll(async () => {
      const d = await open();
      const status = d.status;
      if (d.body) await d.body.cancel();
      return status;
    }, { timeout: 10_000 }).toBe(200);
    await b.body!.cancel();
  });
});
