// A PostgreSQL that stops answering without closing the connection (a paused host, a network that
// drops packets) must fail a statement after the query timeout instead of holding it for ever, and
// the app must carry on once the database answers again. Migrations are not bound by that timeout:
// waiting for another process's migrations may rightly take longer. Runs in the PostgreSQL pass.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK, openDatabase } from './client';
import { createScratchDatabase } from '../test-support/test-server';
import { stallableRelay } from '../test-support/stallable-relay';

const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(!adminUrl)('PostgreSQL query timeout', () => {
  it('fails a statement the database leaves unanswered, and answers again once it is back', async () => {
    const scratch = await createScratchDatabase(adminUrl!);
    cleanups.push(() => scratch.drop());
    const relay = await stallableRelay(new URL(scratch.databaseUrl));
    cleanups.push(() => relay.close());
    const handle = await openDatabase({ databaseUrl: relay.url(scratch.databaseUrl), queryTimeoutMs: 1000 });
    cleanups.push(() => handle.close());
    await handle.db.execute(sql`select 1`);

    relay.stall(true);
    const started = Date.now();
    const failure = await handle.db.execute(sql`select 2`).then(
      () => null,
      (err: Error) => err,
    );
    expect((failure?.cause as Error | undefined)?.message).toMatch(/timeout/i); // drizzle's "Failed query", caused by pg's timeout
    expect(Date.now() - started).toBeLessThan(10_000); // not held for ever (the figure is the timeout's, 1 s)

    relay.stall(false);
    // The stalled connection was dropped: the next statement gets a connection that answers.
    const res = (await handle.db.execute(sql`select 3 as n`)) as unknown as { rows: { n: number }[] };
    expect(res.rows[0]!.n).toBe(3);
  });

  it('a transaction left unanswered fails, and what is written after it is saved (not inside it)', async () => {
    const scratch = await createScratchDatabase(adminUrl!);
    cleanups.push(() => scratch.drop());
    const relay = await stallableRelay(new URL(scratch.databaseUrl));
    cleanups.push(() => relay.close());
    const handle = await openDatabase({ databaseUrl: relay.url(scratch.databaseUrl), queryTimeoutMs: 500 });
    cleanups.push(() => handle.close());
    await handle.db.execute(sql`create table kept (n int)`);

    const failed = await handle.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        relay.stall(true);
        await tx.execute(sql`insert into kept values (0)`);
      })
      .then(
        () => false,
        () => true,
      );
    expect(failed).toBe(true);
    // Longer than two timeouts (the statement's and its ROLLBACK's), then the network heals.
    await new Promise((r) => setTimeout(r, 1500));
    relay.stall(false);

    for (const n of [1, 2, 3]) await handle.db.execute(sql`insert into kept values (${n})`).catch(() => undefined);
    await handle.db.execute(sql`insert into kept values (4)`);
    // Seen from a connection of its own: committed, not held in the transaction that timed out.
    const other = new pg.Client({ connectionString: scratch.databaseUrl });
    await other.connect();
    cleanups.push(() => other.end());
    const seen = (await other.query('select n from kept order by n')).rows.map((r: { n: number }) => r.n);
    expect(seen).toContain(4);
    expect(seen).not.toContain(0);
  });

  it('lets migrations wait for another process longer than the query timeout', async () => {
    const scratch = await createScratchDatabase(adminUrl!);
    cleanups.push(() => scratch.drop());
    // Another process is migrating: it holds the migration lock for 2.5 s.
    const other = new pg.Client({ connectionString: scratch.databaseUrl });
    await other.connect();
    cleanups.push(() => other.end());
    await other.query('select pg_advisory_lock($1, $2)', [MIGRATION_LOCK[0], MIGRATION_LOCK[1]]);
    const release = setTimeout(() => void other.query('select pg_advisory_unlock($1, $2)', [MIGRATION_LOCK[0], MIGRATION_LOCK[1]]), 2500);
    cleanups.push(async () => clearTimeout(release));

    const handle = await openDatabase({ databaseUrl: scratch.databaseUrl, queryTimeoutMs: 500 });
    cleanups.push(() => handle.close());
    const res = (await handle.db.execute(sql`select count(*)::int as n from personalities`)) as unknown as { rows: { n: number }[] };
    expect(res.rows[0]!.n).toBe(0);
  });
});
