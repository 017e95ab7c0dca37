// Rows that no longer matter are removed, and only those: old rate-limit windows, sign-in records
// nobody is judged by any more, expired sessions and links. A running server does it on its own.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server';
import { pruneExpiredRows } from './housekeeping';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { HOUSEKEEPING_INTERVAL_MS: '1000' } });
});
afterAll(async () => {
  await server?.close();
});

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

async function run(statement: ReturnType<typeof sql>) {
  return ((await server.database.db.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows;
}
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function seed(tag: string, userId: string) {
  await run(sql`insert into api_rate_limits (endpoint, subject, window_start, request_count) values
    (${`old-${tag}`}, 's', ${ago(3 * DAY)}, 5), (${`recent-${tag}`}, 's', ${ago(2 * HOUR)}, 5)`);
  await run(sql`insert into auth_sign_in_attempts (email, ip_address, failures, last_failure_at, locked_until, last_success_at) values
    (${`stale-${tag}@x`}, '10.0.0.1', 3, ${ago(2 * DAY)}, ${ago(2 * DAY)}, null),
    (${`failing-${tag}@x`}, '10.0.0.1', 3, ${ago(HOUR)}, null, null),
    (${`locked-${tag}@x`}, '10.0.0.1', 9, ${ago(2 * DAY)}, ${new Date(Date.now() + HOUR).toISOString()}, null),
    (${`trusted-${tag}@x`}, '10.0.0.1', 0, null, null, ${ago(30 * DAY)}),
    (${`forgotten-${tag}@x`}, '10.0.0.1', 0, null, null, ${ago(120 * DAY)})`);
  await run(sql`insert into "session" (id, token, user_id, expires_at) values
    (${`expired-${tag}`}, ${`t-expired-${tag}`}, ${userId}, ${ago(HOUR)}),
    (${`live-${tag}`}, ${`t-live-${tag}`}, ${userId}, ${new Date(Date.now() + DAY).toISOString()})`);
  await run(sql`insert into verification (id, identifier, value, expires_at) values
    (${`expired-${tag}`}, 'x', 'v', ${ago(HOUR)}), (${`live-${tag}`}, 'x', 'v', ${new Date(Date.now() + HOUR).toISOString()})`);
}

async function left(tag: string) {
  const like = `%${tag}%`;
  const names = async (statement: ReturnType<typeof sql>) => (await run(statement)).map((r) => String(r.name).replace(`-${tag}`, '').replace('@x', '')).sort();
  return {
    windows: await names(sql`select endpoint as name from api_rate_limits where endpoint like ${like}`),
    attempts: await names(sql`select email as name from auth_sign_in_attempts where email like ${like}`),
    sessions: await names(sql`select id as name from "session" where id like ${like}`),
    verifications: await names(sql`select id as name from verification where id like ${like}`),
  };
}

describe('housekeeping', () => {
  it('removes only rows that no longer decide anything', async () => {
    const owner = await server.user();
    await seed('direct', owner.id);
    const counts = await pruneExpiredRows(server.database, new Date());
    expect(counts.rateLimitWindows).toBeGreaterThanOrEqual(1);
    expect(await left('direct')).toEqual({
      windows: ['recent'],
      // A recent failure still counts; a lock still holds; an address used 30 days ago is trusted.
      attempts: ['failing', 'locked', 'trusted'],
      sessions: ['live'],
      verifications: ['live'],
    });
    // The person's own session (signed in just now) is untouched: they are still signed in.
    expect((await owner.get('/api/me')).body.user).toMatchObject({ email: owner.email });
  });

  it('runs on its own in a started server', async () => {
    const owner = await server.user();
    await seed('timer', owner.id);
    const deadline = Date.now() + 15_000;
    while ((await left('timer')).windows.includes('old')) {
      if (Date.now() > deadline) throw new Error('the old rate-limit window was never removed');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await left('timer')).sessions).toEqual(['live']);
  });
});
