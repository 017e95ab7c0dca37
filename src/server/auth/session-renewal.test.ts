// A person who keeps using the app stays signed in: once a day the auth library pushes the
// session's expiry forward in the database, and the app's own routes (the web app never calls
// /api/auth/get-session) hand the browser the renewed cookie with it. Before, the cookie kept the
// Max-Age it got at sign-in and everyone was signed out 30 days later, however active.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session } from '../db/schema/auth';
import { startTestServer, type TestServer } from '../test-support/test-server';

const DAY_MS = 24 * 60 * 60 * 1000;
const THIRTY_DAYS_S = 30 * 24 * 60 * 60;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** The session row behind the client's cookie (the token is the part before the signature). */
function tokenOf(cookies: Map<string, string>): string {
  const value = decodeURIComponent(cookies.get('better-auth.session_token') ?? '');
  return value.split('.')[0]!;
}

/** As the auditor did: signed in 29 days ago, last renewed then, one day left. */
async function ageSession(token: string) {
  const longAgo = new Date(Date.now() - 29 * DAY_MS);
  await server.database.db
    .update(session)
    .set({ createdAt: longAgo, updatedAt: longAgo, expiresAt: new Date(Date.now() + DAY_MS) })
    .where(eq(session.token, token));
}

async function expiryOf(token: string): Promise<number> {
  const [row] = await server.database.db.select({ expiresAt: session.expiresAt }).from(session).where(eq(session.token, token));
  return new Date(row!.expiresAt).getTime();
}

/** The response's session-token cookie, if it sets one. */
function sessionCookieSet(headers: Headers): string | undefined {
  return headers.getSetCookie().find((c) => /^(?:__Secure-)?better-auth\.session_token=/.test(c));
}

function maxAgeOf(cookie: string): number | undefined {
  const m = cookie.match(/;\s*Max-Age=(\d+)/i);
  return m ? Number(m[1]) : undefined;
}

describe('session renewal', () => {
  it('/api/me renews a day-old session: the database expiry moves and the cookie gets a fresh Max-Age', async () => {
    const account = await server.user();
    const token = tokenOf(account.cookies);
    const cookieBefore = account.cookies.get('better-auth.session_token');
    await ageSession(token);

    const me = await account.get('/api/me');
    expect(me.body.user.id).toBe(account.id);
    const renewed = sessionCookieSet(me.headers);
    expect(renewed).toBeDefined();
    expect(maxAgeOf(renewed!)).toBe(THIRTY_DAYS_S);
    expect(renewed).toMatch(/HttpOnly/i);
    // The same session, kept: the cookie's value does not change, only its lifetime.
    expect(account.cookies.get('better-auth.session_token')).toBe(cookieBefore);
    expect(await expiryOf(token)).toBeGreaterThan(Date.now() + 29 * DAY_MS);

    // Renewed once: the next request (cached or not) has nothing to renew.
    expect(sessionCookieSet((await account.get('/api/me')).headers)).toBeUndefined();
  });

  it('any route that reads the session renews it, not only /api/me', async () => {
    const account = await server.user();
    const token = tokenOf(account.cookies);
    await ageSession(token);
    const list = await account.get('/api/personalities');
    expect(list.status).toBe(200);
    expect(maxAgeOf(sessionCookieSet(list.headers) ?? '')).toBe(THIRTY_DAYS_S);
    expect(await expiryOf(token)).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });

  it('a session cached a moment ago is still renewed once it is due (the cache holds it for seconds, never past a renewal)', async () => {
    const account = await server.user();
    const token = tokenOf(account.cookies);
    // Warm the session cache with the fresh session: nothing to renew yet.
    expect(sessionCookieSet((await account.get('/api/me')).headers)).toBeUndefined();
    await ageSession(token);
    // The next request that looks the session up renews it; the cache keeps an entry 10 s at most.
    let renewed: string | undefined;
    for (let i = 0; i < 30 && !renewed; i++) {
      renewed = sessionCookieSet((await account.get('/api/me')).headers);
      if (!renewed) await new Promise((r) => setTimeout(r, 500));
    }
    expect(maxAgeOf(renewed ?? '')).toBe(THIRTY_DAYS_S);
    expect(await expiryOf(token)).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  }, 30_000);

  it('a long-lived stream re-checking the session does not use up the day\'s renewal (its answer carries no cookie)', async () => {
    const account = await server.user();
    const token = tokenOf(account.cookies);
    const created = await account.post('/api/personalities', { name: 'Streamed' });
    expect(created.status).toBe(201);
    const personalityId = created.body.personality?.id ?? created.body.id;
    await ageSession(token);
    const aborter = new AbortController();
    const stream = await account.raw(`/api/personalities/${personalityId}/documents/events`, { signal: aborter.signal });
    expect(stream.status).toBe(200);
    // Long enough for the stream to re-check the session a few times (every 2 s) and for the
    // session cache's entry from the request above to run out (10 s).
    await new Promise((r) => setTimeout(r, 11_000));
    aborter.abort();
    await stream.body?.cancel().catch(() => {});
    const me = await account.get('/api/me');
    expect(maxAgeOf(sessionCookieSet(me.headers) ?? '')).toBe(THIRTY_DAYS_S);
  }, 30_000);

  it('sign-out still clears the cookie: a renewal never overrides the cookie a route sets itself', async () => {
    const account = await server.user();
    await ageSession(tokenOf(account.cookies));
    const out = await account.post('/api/auth/sign-out', {});
    expect(out.status).toBe(200);
    const sessionCookies = out.headers.getSetCookie().filter((c) => /^(?:__Secure-)?better-auth\.session_token=/.test(c));
    expect(sessionCookies).toHaveLength(1);
    expect(maxAgeOf(sessionCookies[0]!)).toBe(0);
    expect(account.cookies.has('better-auth.session_token')).toBe(false);
    expect((await account.get('/api/me')).body.user).toBeNull();
  });

  it('a session not yet due is left alone (no cookie on every request)', async () => {
    const account = await server.user();
    const token = tokenOf(account.cookies);
    const before = await expiryOf(token);
    const me = await account.get('/api/me');
    expect(sessionCookieSet(me.headers)).toBeUndefined();
    expect(await expiryOf(token)).toBe(before);
  });
});
