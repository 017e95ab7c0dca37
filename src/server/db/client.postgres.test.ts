// On PostgreSQL, a pooled connection the server cuts (restart, failover, pg_terminate_backend)
// must not crash the app: the pool drops it, the app logs a warning and the next query works.
// Runs in the PostgreSQL pass (TEST_DATABASE_URL); PGlite has no pool and no such failure.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './client';
import { createLogger } from '../lib/logger';
import { createScratchDatabase } from '../test-support/test-server';

const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(!adminUrl)('PostgreSQL connection pool', () => {
  it('survives the server terminating an idle connection, and keeps answering', async () => {
    const scratch = await createScratchDatabase(adminUrl!);
    cleanups.push(() => scratch.drop());
    const lines: string[] = [];
    const handle: DatabaseHandle = await openDatabase({ databaseUrl: scratch.databaseUrl, logger: createLogger('warn', (l) => lines.push(l)) });
    cleanups.push(() => handle.close());
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    cleanups.push(async () => void process.off('uncaughtException', onUncaught));

    await handle.db.execute(sql`select 1`); // leaves an idle connection in the pool
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const killed = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`,
      [new URL(scratch.databaseUrl).pathname.slice(1)],
    );
    await admin.end();
    expect(killed.rowCount).toBeGreaterThan(0);

    await expect.poll(() => lines.some((l) => /closed by the server/.test(l)), { timeout: 5000 }).toBe(true);
    expect(uncaught).toEqual([]);
    const res = (await handle.db.execute(sql`select 2 as n`)) as unknown as { rows: { n: number }[] };
    expect(res.rows[0]!.n).toBe(2);
  });
});
