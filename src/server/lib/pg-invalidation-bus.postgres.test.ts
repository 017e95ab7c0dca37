// The LISTEN/NOTIFY bus between app processes (two buses on one database stand for two
// processes): a notice published by one reaches the other's subscribers, is not delivered twice
// to its own, and a listener connection the server cuts is re-made, with "*" told to subscribers
// because notices may have been missed meanwhile. caughtUp() answers only once every notice
// published before it has been heard, and says so when it cannot know. Runs in the PostgreSQL pass
// (TEST_DATABASE_URL).
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgInvalidationBus, type PgInvalidationBus } from './pg-invalidation-bus';
import { createLogger } from './logger';
import { createScratchDatabase } from '../test-support/test-server';
import { INVALIDATION_TOPICS } from './invalidation-bus';
import { stallableRelay } from '../test-support/stallable-relay';

const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A bus as one app process has it; `listenerUrl` reaches the same database another way (a relay). */
async function busOn(url: string, name: string, listenerUrl = url): Promise<PgInvalidationBus> {
  // One client rather than a pool: its end() waits for the connection to close, so the scratch
  // database's forced drop never meets it still open (a pool's end() resolves before its clients
  // have closed, and the drop's termination then surfaced as an unhandled error: a CI run met it).
  const notifier = new pg.Client({ connectionString: url });
  notifier.on('error', () => undefined);
  await notifier.connect();
  const bus = createPgInvalidationBus({
    databaseUrl: listenerUrl,
    notify: (channel, payload) => notifier.query('select pg_notify($1, $2)', [channel, payload]),
    logger: createLogger('silent'),
    topics: INVALIDATION_TOPICS,
  });
  await bus.ready();
  cleanups.push(async () => {
    await bus.close();
    await notifier.end();
  });
  void name;
  return bus;
}

/** A scratch database, dropped after this file's tests. */
async function scratchDatabase() {
  const scratch = await createScratchDatabase(adminUrl!);
  cleanups.push(() => scratch.drop());
  return scratch;
}

/** Two app processes' buses on one fresh database. */
async function twoProcesses() {
  const scratch = await scratchDatabase();
  return { scratch, a: await busOn(scratch.databaseUrl, 'A'), b: await busOn(scratch.databaseUrl, 'B') };
}

describe.skipIf(!adminUrl)('invalidation bus over LISTEN/NOTIFY', () => {
  it('carries a notice from one process to another, once', async () => {
    const { a, b } = await twoProcesses();
    const seenA: string[] = [];
    const seenB: string[] = [];
    a.subscribe('personality', (k) => seenA.push(k));
    b.subscribe('personality', (k) => seenB.push(k));
    b.subscribe('session', (k) => seenB.push(`session:${k}`));

    a.publish('personality', 'p-1');
    expect(seenA).toEqual(['p-1']); // local subscribers synchronously
    await expect.poll(() => seenB, { timeout: 5000 }).toEqual(['p-1']);
    b.publish('session', 's-9');
    await expect.poll(() => seenB, { timeout: 5000 }).toEqual(['p-1', 'session:s-9']);
    // A's own notice came back from PostgreSQL too, and was not delivered a second time.
    a.publish('personality', 'p-2');
    await expect.poll(() => seenB, { timeout: 5000 }).toEqual(['p-1', 'session:s-9', 'p-2']);
    expect(seenA).toEqual(['p-1', 'p-2']);
  });

  it('re-makes a listener connection the server cut, and tells subscribers everything may be stale', async () => {
    const { scratch, a, b } = await twoProcesses();
    const seenB: string[] = [];
    b.subscribe('documents', (k) => seenB.push(k));

    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const killed = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'kindred-listener'`,
      [new URL(scratch.databaseUrl).pathname.slice(1)],
    );
    await admin.end();
    expect(killed.rowCount).toBe(2);

    await expect.poll(() => seenB.includes('*'), { timeout: 10_000 }).toBe(true);
    // Listening again: the next notice from A arrives.
    await expect
      .poll(
        () => {
          a.publish('documents', 'after-reconnect');
          return seenB.includes('after-reconnect');
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(true);
  });

  it('caughtUp() answers only once every notice another process published before it has arrived', async () => {
    const { a, b } = await twoProcesses();
    const seenB: string[] = [];
    b.subscribe('session', (k) => seenB.push(k));
    // A sign-out on A answers once its notice is committed; its client asks B at once. Without the
    // catch-up, B reads its memory before the notice has come in (in this single test process the
    // NOTIFY's answer and B's copy of it race on the same event loop).
    for (let round = 0; round < 30; round++) {
      await a.publish('session', `user-${round}`);
      expect(await b.caughtUp()).toBe(true);
      expect(seenB.at(-1)).toBe(`user-${round}`);
    }
    // Callers arriving together share the round trips, and every one of them is answered.
    const together = await Promise.all(Array.from({ length: 20 }, () => b.caughtUp()));
    expect(together).toEqual(Array(20).fill(true));
    // Another process's round trips are not notices: B's subscribers saw exactly A's 30.
    await a.caughtUp();
    expect(await b.caughtUp()).toBe(true);
    expect(seenB).toHaveLength(30);
  });

  it('caughtUp() says false when the listener stops answering, and the listener is re-made', async () => {
    const scratch = await scratchDatabase();
    const relay = await stallableRelay(new URL(scratch.databaseUrl));
    cleanups.push(() => relay.close());
    const b = await busOn(scratch.databaseUrl, 'B', relay.url(scratch.databaseUrl));
    const seenB: string[] = [];
    b.subscribe('session', (k) => seenB.push(k));
    expect(await b.caughtUp()).toBe(true);

    relay.stall(true);
    expect(await b.caughtUp()).toBe(false);
    // The connection that did not answer was given up: until a new one listens, nobody can say.
    expect(await b.caughtUp()).toBe(false);
    relay.stall(false);
    await expect.poll(() => seenB.includes('*'), { timeout: 10_000 }).toBe(true);
    expect(await b.caughtUp()).toBe(true);
  });
});
