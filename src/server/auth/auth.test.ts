// Sign-up, sign-in, sessions and sign-out through real HTTP, with SMTP_URL unset (the embedded
// default: the account is confirmed at sign-up and works at once; no link is written anywhere).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../test-support/test-server';
import { user } from '../db/schema/auth';
import { messages } from '../../shared/messages';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('sign-up', () => {
  it('defaults the display name to the part of the e-mail before the @', async () => {
    const c = server.client();
    const res = await c.signUp('Jane.Doe@Example.com', 'secret-pass');
    expect(res.status).toBe(200);
    // better-auth stores e-mails lower-cased, so the default name is the lower-cased local part.
    expect(res.body.user).toMatchObject({ email: 'jane.doe@example.com', name: 'jane.doe' });
    // No mail server: no link could ever arrive, so sign-up itself opened a session.
    expect(typeof res.body.token).toBe('string');
    const me = await c.get('/api/me');
    expect(me.body).toEqual({ user: { id: res.body.user.id, email: 'jane.doe@example.com', displayName: 'jane.doe' }, isAdmin: false });
  });

  it('keeps a display name that is given, trimmed', async () => {
    const res = await server.client().signUp('named@example.com', 'secret-pass', '  Ada  ');
    expect(res.status).toBe(200);
    expect(res.body.user.name).toBe('Ada');
  });

  it('says once at start-up that accounts are confirmed automatically', () => {
    expect(server.logs.filter((l) => l.includes('accounts are confirmed automatically'))).toHaveLength(1);
  });

  it('confirms the account at sign-up, and never writes a sign-in link to the log', async () => {
    const c = server.client();
    const res = await c.signUp('logged@example.com', 'secret-pass');
    expect(res.status).toBe(200);
    const [row] = await server.database.db.select({ emailVerified: user.emailVerified }).from(user).where(eq(user.id, res.body.user.id));
    expect(row!.emailVerified).toBe(true);
    // Asking for a confirmation e-mail anyway (anyone can, for any address) leaves no link behind.
    await server.client().post('/api/auth/send-verification-email', { email: 'logged@example.com' });
    expect(server.logs.some((l) => l.includes('verify-email') || l.includes('token='))).toBe(false);
  });

  it('reports a duplicate sign-up, in any letter case, and keeps the first password', async () => {
    expect((await server.client().signUp('twice@example.com', 'first-pass')).status).toBe(200);
    const again = await server.client().signUp('TWICE@example.com', 'second-pass');
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(messages.auth.alreadyRegistered);
    expect(await server.database.db.select().from(user).where(eq(user.email, 'twice@example.com'))).toHaveLength(1);
    expect((await server.client().signIn('twice@example.com', 'second-pass')).status).toBe(401);
    expect((await server.client().signIn('twice@example.com', 'first-pass')).status).toBe(200);
  });

  it('refuses a short password with a message a person can act on', async () => {
    const res = await server.client().signUp('short@example.com', '12345');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Password must be at least 6 characters long');
    expect(await server.database.db.select().from(user).where(eq(user.email, 'short@example.com'))).toHaveLength(0);
    expect((await server.client().signUp('short@example.com', '123456')).status).toBe(200);
  });

  it.each([
    ['an invalid e-mail', { email: 'not-an-email', password: 'secret-pass', name: '' }],
    ['a missing password', { email: 'nopass@example.com', name: '' }],
    ['a numeric password', { email: 'num@example.com', password: 12345678, name: '' }],
  ])('refuses %s with 400', async (_label, body) => {
    const res = await server.client().request('POST', '/api/auth/sign-up/email', body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });
});

describe('display name', () => {
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  const nameOf = async (id: string) => (await server.database.db.select({ name: user.name }).from(user).where(eq(user.id, id)))[0]!.name;

  it('at sign-up, a name of invisible characters only is no name: the e-mail default is used', async () => {
    for (const [i, invisible] of ['\u200B', '\u200D\u200F', '\u0301', ' \uFEFF\u202E '].entries()) {
      const res = await server.client().signUp(`invisible${i}@example.com`, 'secret-pass', invisible);
      expect(res.status).toBe(200);
      expect(res.body.user.name).toBe(`invisible${i}`);
    }
  });

  it('at sign-up, cuts a name longer than the limit where a character ends, never inside an emoji', async () => {
    // 99 letters then an emoji: a cut at 100 UTF-16 units would keep half of it (saved as U+FFFD).
    const res = await server.client().signUp('longname@example.com', 'secret-pass', `${'a'.repeat(99)}🌸🌸 and more`);
    expect(res.status).toBe(200);
    const saved = await nameOf(res.body.user.id);
    expect(saved).toBe('a'.repeat(99));
    expect(LONE_SURROGATE.test(saved)).toBe(false);
    const huge = await server.client().signUp('hugename@example.com', 'secret-pass', 'x'.repeat(100_000));
    expect(huge.status).toBe(200);
    expect(await nameOf(huge.body.user.id)).toBe('x'.repeat(100));
  });

  it('removes bidi overrides and isolates from the name (no "Albert einstein" spoof), keeps the rest', async () => {
    const res = await server.client().signUp('spoof@example.com', 'secret-pass', 'Albert \u202Enietsnie\u202C \u2066x\u2069');
    expect(res.status).toBe(200);
    expect(await nameOf(res.body.user.id)).toBe('Albert nietsnie x');
    const family = await server.client().signUp('family@example.com', 'secret-pass', 'Zoë 👩‍👩‍👧 می\u200Cخواهم');
    expect(await nameOf(family.body.user.id)).toBe('Zoë 👩‍👩‍👧 می\u200Cخواهم');
  });

  it('update-user refuses a blank name, empty, spaces or invisible characters only, with a message', async () => {
    const account = await server.user(undefined, undefined, 'Before');
    for (const name of ['', '   ', '\u200B', '\u200D', '\u200F', '\u0301', '\u202E\u2066 ']) {
      const res = await account.post('/api/auth/update-user', { name });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(messages.auth.displayNameBlank);
    }
    for (const name of [null, 42, { first: 'x' }]) {
      const res = await account.post('/api/auth/update-user', { name });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(messages.auth.displayNameNotText);
    }
    expect(await nameOf(account.id)).toBe('Before');
    expect((await account.get('/api/me')).body.user.displayName).toBe('Before');
  });

  it('update-user saves a name by the sign-up rule: trimmed, overrides removed, cut at the limit on a character', async () => {
    const account = await server.user();
    const long = await account.post('/api/auth/update-user', { name: 'y'.repeat(100_000) });
    expect(long.status).toBe(200);
    expect(await nameOf(account.id)).toBe('y'.repeat(100));
    await account.post('/api/auth/update-user', { name: `${'b'.repeat(99)}😀😀` });
    const saved = await nameOf(account.id);
    expect(saved).toBe('b'.repeat(99));
    expect(LONE_SURROGATE.test(saved)).toBe(false);
    expect((await account.post('/api/auth/update-user', { name: '  Albert \u202Enietsnie  ' })).status).toBe(200);
    expect(await nameOf(account.id)).toBe('Albert nietsnie');
    expect((await account.post('/api/auth/update-user', { name: '👩‍👩‍👧' })).status).toBe(200);
    expect((await account.get('/api/me')).body.user.displayName).toBe('👩‍👩‍👧');
  });
});

describe('sign-in', () => {
  it('refuses a wrong password and an unknown account the same way', async () => {
    const account = await server.user();
    const wrong = await server.client().signIn(account.email, 'wrong-pass');
    const unknown = await server.client().signIn('nobody@example.com', 'wrong-pass');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect(wrong.body.message).toBe('Invalid email or password');
  });

  it('keeps the session: a new request with the cookie is still signed in', async () => {
    const account = await server.user();
    const browser = server.client();
    for (const [k, v] of account.cookies) browser.cookies.set(k, v);
    const me = await browser.get('/api/me');
    expect(me.body.user).toMatchObject({ id: account.id, email: account.email });
    // The session cookie is httpOnly and SameSite.
    const signIn = await server.client().raw('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: 'secret-pass' }),
    });
    const cookie = signIn.headers.getSetCookie().find((c) => c.includes('session_token'));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});

describe('sign-out', () => {
  it('ends the session on the server: the old cookie no longer works', async () => {
    const account = await server.user();
    const stolen = new Map(account.cookies);
    const out = await account.post('/api/auth/sign-out', {});
    expect(out.status).toBe(200);
    expect((await account.get('/api/me')).body.user).toBeNull();
    const replay = server.client();
    for (const [k, v] of stolen) replay.cookies.set(k, v);
    expect((await replay.get('/api/me')).body).toEqual({ user: null, isAdmin: false });
    expect((await replay.post('/api/personalities', { name: 'After sign-out' })).status).toBe(401);
  });

  it('answers /api/me for an anonymous visitor', async () => {
    expect((await server.client().get('/api/me')).body).toEqual({ user: null, isAdmin: false });
  });
});
