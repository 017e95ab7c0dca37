// Rate limits on sign-up, sign-in and feedback: fixed windows counted in api_rate_limits (the
// database, not memory), 429 with Retry-After past the limit, a fresh window after it ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestResponse, type TestServer } from '../../test-support/test-server';
import { apiRateLimits } from '../../db/schema/rate-limits';
import { authSignInAttempts } from '../../db/schema/security';
import { messages } from '../../../shared/messages';
import { countHit, countHits, countHitsSql, uncountHit } from './rate-limits.repository';

// A clock the test moves; the limiter reads time only through it.
const clock = { at: Date.UTC(2030, 0, 1, 12, 0, 0), now: () => new Date(clock.at) };
const AUTH_MAX = 3;
const FEEDBACK_MAX = 2;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    clock,
    env: { RATE_LIMIT_AUTH_PER_15MIN: String(AUTH_MAX), RATE_LIMIT_FEEDBACK_PER_HOUR: String(FEEDBACK_MAX) },
  });
});
afterAll(async () => {
  await server?.close();
});

function expectLimited(res: TestResponse, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body.error).toMatchObject({ code: 'RATE_LIMITED', message: messages.errors.rateLimited });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.body.error.details.retryAfter).toBe(retryAfter);
}

async function counters(endpoint: string) {
  return server.database.db.select().from(apiRateLimits).where(eq(apiRateLimits.endpoint, endpoint));
}

describe('sign-up and sign-in limits', () => {
  it('limits sign-up attempts per address and resets with the next window', async () => {
    for (let i = 0; i < AUTH_MAX; i++) {
      expect((await server.client().signUp(`burst${i}@example.com`, 'secret-pass')).status).toBe(200);
    }
    const blocked = await server.client().signUp('burst-extra@example.com', 'secret-pass');
    expectLimited(blocked, 15 * 60);
    // Nothing was created for the refused attempt.
    expect((await server.client().signIn('burst-extra@example.com', 'secret-pass')).status).toBe(401);

    const rows = await counters('auth/sign-up');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requestCount: AUTH_MAX + 1, ipAddress: '127.0.0.1', userId: null });

    clock.at += 15 * 60 * 1000;
    expect((await server.client().signUp('burst-later@example.com', 'secret-pass')).status).toBe(200);
  });

  it('limits wrong passwords per address (not per cookie), and an account that signed in there before keeps its way in', async () => {
    clock.at += 15 * 60 * 1000;
    // burst1 signs in once from this address: a good record for that pair.
    expect((await server.client().signIn('burst1@example.com', 'secret-pass')).status).toBe(200);
    const attacker = await server.user('cookie-holder@example.com');
    for (let i = 0; i < AUTH_MAX; i++) expect((await server.client().signIn('burst0@example.com', 'wrong-pass')).status).toBe(401);
    // The address has spent its budget of failures: a new pair is refused, right password or not.
    const blocked = await server.client().signIn('burst2@example.com', 'secret-pass');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // A signed-in attacker gets no fresh budget from their cookie.
    expect((await attacker.signIn('burst0@example.com', 'wrong-pass')).status).toBe(429);
    // The account that signed in here before is not locked out.
    expect((await server.client().signIn('burst1@example.com', 'secret-pass')).status).toBe(200);
    // Sign-up has its own counter in this window.
    expect((await server.client().signUp('other-counter@example.com', 'secret-pass')).status).toBe(200);
  });

  it('keeps its counters in the database: clearing them lifts the limit', async () => {
    expect((await server.client().signIn('burst2@example.com', 'secret-pass')).status).toBe(429);
    await server.database.db.delete(authSignInAttempts);
    expect((await server.client().signIn('burst2@example.com', 'secret-pass')).status).toBe(200);
  });
});

describe('feedback limit', () => {
  it('limits feedback per user per hour, counting other users separately', async () => {
    clock.at += 60 * 60 * 1000;
    const alice = await server.user('alice@example.com');
    const bob = await server.user('bob@example.com');
    for (let i = 0; i < FEEDBACK_MAX; i++) expect((await alice.post('/api/feedback', { feedback: `note ${i}` })).status).toBe(201);
    expectLimited(await alice.post('/api/feedback', { feedback: 'one more' }), 3600);
    expect((await bob.post('/api/feedback', { feedback: 'mine' })).status).toBe(201);
    const aliceRow = (await counters('feedback')).find((r) => r.userId === alice.id);
    expect(aliceRow).toMatchObject({ subject: `user:${alice.id}`, requestCount: FEEDBACK_MAX + 1 });

    clock.at += 60 * 60 * 1000;
    expect((await alice.post('/api/feedback', { feedback: 'next hour' })).status).toBe(201);
  });

  it('limits anonymous feedback by address', async () => {
    clock.at += 60 * 60 * 1000;
    for (let i = 0; i < FEEDBACK_MAX; i++) expect((await server.client().post('/api/feedback', { feedback: `anon ${i}` })).status).toBe(201);
    expectLimited(await server.client().post('/api/feedback', { feedback: 'anon extra' }), 3600);
  });
});

describe('several limits in one statement (open mic\'s turn counts two)', () => {
  const hit = (endpoint: string, subject = 'user:counted') => ({ endpoint, subject, windowStart: new Date(clock.at - (clock.at % 60_000)), userId: null, ipAddress: '127.0.0.1' });

  it('counts each window atomically, in one statement, and gives the counts in the order asked', async () => {
    const db = server.database.db;
    let statements = 0;
    const counting = new Proxy(db, {
      get(t, key, receiver) {
        if (key === 'execute' || key === 'insert' || key === 'select') statements++;
        return Reflect.get(t, key, receiver);
      },
    });
    expect(await countHits(counting, [hit('test/a'), hit('test/b')])).toEqual([1, 1]);
    expect(await countHits(counting, [hit('test/b'), hit('test/a')])).toEqual([2, 2]);
    expect(await countHits(counting, [hit('test/a')])).toEqual([3]);
    expect(statements).toBe(3);
    // Concurrent requests never read the same count: each hit is its own increment.
    const counts = await Promise.all(Array.from({ length: 10 }, () => countHits(db, [hit('test/c'), hit('test/a')])));
    expect(counts.map(([c]) => c).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(counts.map(([, a]) => a).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 10 }, (_, i) => i + 4));
    expect((await counters('test/a'))[0]).toMatchObject({ requestCount: 13, subject: 'user:counted', ipAddress: '127.0.0.1' });
  });

  it('a weighted hit adds its weight (a paid voice counts characters), atomically, and can be given back', async () => {
    const db = server.database.db;
    const weighted = (weight: number) => ({ ...hit('test/weighted', 'ip:203.0.113.9'), weight });
    expect(await countHit(db, weighted(60))).toBe(60);
    expect(await countHits(db, [weighted(25), hit('test/weighted-other')])).toEqual([85, 1]);
    // Concurrent weighted hits each add their own weight: none is lost.
    const totals = await Promise.all(Array.from({ length: 10 }, () => countHit(db, weighted(10))));
    expect(totals.sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => 95 + i * 10));
    await uncountHit(db, weighted(25));
    expect((await counters('test/weighted'))[0]).toMatchObject({ requestCount: 160, subject: 'ip:203.0.113.9' });
    // Never below zero, and giving back a window never counted is no error.
    await uncountHit(db, weighted(1000));
    expect((await counters('test/weighted'))[0]!.requestCount).toBe(0);
    await uncountHit(db, { ...weighted(5), subject: 'ip:never-counted' });
    expect(await counters('test/weighted')).toHaveLength(1);
  });

  it('refuses to count the same window twice in one statement', () => {
    expect(() => countHitsSql([hit('test/d'), hit('test/d')])).toThrow(/twice/);
  });
});
