// The invalidation bus when several app processes share one PostgreSQL: publish() tells this
// process's subscribers at once and sends NOTIFY on the kindred_invalidate channel (through the
// shared pool, so a publish never waits for the listener connection); one dedicated connection per
// process LISTENs and hands other processes' notices to local subscribers. The listener reconnects
// after an error with backoff; notices sent while it was away are lost, so on reconnecting it tells
// every subscriber "*" (drop everything of this topic) rather than leave a cache stale.
//
// caughtUp(): a notice reaches the other processes a moment after the NOTIFY committed, and the
// publisher may have answered its client in between (a sign-out on A; the old cookie is replayed
// on B at once). So a cache asks before answering from memory: the listener connection sends
// NOTIFY to itself and waits for that notice to come back. PostgreSQL delivers notices in commit
// order from one queue, so once our own arrives, every notice committed before it has been
// delivered here too. Concurrent callers share one such round trip.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Logger } from './logger';
import type { InvalidationBus, InvalidationTopic } from './invalidation-bus';

export const INVALIDATION_CHANNEL = 'kindred_invalidate';
/** NOTIFY payloads must stay under 8000 bytes; keys are ids, far below that. */
const MAX_PAYLOAD = 7900;
/** A listener that does not hear its own notice back this soon is treated as lost (and re-made). */
export const CAUGHT_UP_TIMEOUT_MS = 2000;
import { ALL_KEYS } from './invalidation-bus';
export { ALL_KEYS };

export interface PgInvalidationBus extends InvalidationBus {
  /** Resolves once the listener connection is listening (start-up waits for it). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface PgBusOptions {
  databaseUrl: string;
  /** Runs `select pg_notify($1, $2)` on the app's pool. */
  notify(channel: string, payload: string): Promise<unknown>;
  logger: Logger;
  topics: readonly InvalidationTopic[];
}

export function createPgInvalidationBus(opts: PgBusOptions): PgInvalidationBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  // Tells this process's own notices (echoed back by PostgreSQL) from other processes'.
  const origin = crypto.randomBytes(8).toString('hex');
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 250;
  let firstConnect: Promise<void> | undefined;
  // caughtUp(): the round trip under way, and the one every caller arriving meanwhile shares (the
  // one under way may have been sent before their notice was committed, so it does not count).
  let syncSeq = 0;
  const syncWaiters = new Map<number, (heard: boolean) => void>();
  let syncUnderWay: Promise<boolean> | undefined;
  let syncNext: Promise<boolean> | undefined;

  const deliver = (topic: string, key: string) => void emitter.emit(topic, key);

  /** Settles the round trips up to `seq` (notices arrive in order: a later one implies the earlier). */
  function settleSyncs(upTo: number, heard: boolean) {
    for (const [seq, settle] of syncWaiters) {
      if (seq > upTo) continue;
      syncWaiters.delete(seq);
      settle(heard);
    }
  }

  function syncRoundTrip(): Promise<boolean> {
    const c = client;
    if (!c) return Promise.resolve(false);
    const seq = ++syncSeq;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        settleSyncs(seq, false);
        lost(c, new Error(`it did not hear its own notice back within ${CAUGHT_UP_TIMEOUT_MS} ms`));
      }, CAUGHT_UP_TIMEOUT_MS);
      timer.unref();
      syncWaiters.set(seq, (heard) => {
        clearTimeout(timer);
        resolve(heard);
      });
      c.query('select pg_notify($1, $2)', [INVALIDATION_CHANNEL, JSON.stringify({ o: origin, s: seq })]).catch(() => settleSyncs(seq, false));
    });
  }

  function caughtUp(): Promise<boolean> {
    if (!syncUnderWay) {
      const mine = syncRoundTrip().finally(() => {
        if (syncUnderWay === mine) syncUnderWay = undefined;
      });
      syncUnderWay = mine;
      return mine;
    }
    syncNext ??= syncUnderWay.then(() => {
      syncNext = undefined;
      return caughtUp();
    });
    return syncNext;
  }

  async function connect(): Promise<void> {
    // TCP keepalive: a connection a firewall or NAT dropped without a reset would otherwise look
    // alive forever, and this process would never hear another notice (nor reconnect).
    const c = new pg.Client({ connectionString: opts.databaseUrl, application_name: 'kindred-listener', keepAlive: true, keepAliveInitialDelayMillis: 30_000 });
    c.on('notification', (msg) => {
      if (msg.channel !== INVALIDATION_CHANNEL || !msg.payload) return;
      try {
        const { o, t, k, s: seq } = JSON.parse(msg.payload) as { o: string; t?: string; k?: string; s?: number };
        if (seq !== undefined) {
          // A caughtUp() round trip: ours settles its callers; another process's is none of ours.
          if (o === origin) settleSyncs(seq, true);
        } else if (o !== origin && t && k) deliver(t, k);
      } catch {
        /* not ours */
      }
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    await c.connect();
    await c.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    retryMs = 250;
  }

  function lost(c: pg.Client, err?: Error) {
    if (client !== c || closed) return;
    client = undefined;
    // Round trips sent on it will never come back: their callers must not trust their caches.
    settleSyncs(Infinity, false);
    opts.logger.warn('the database notification connection was lost; reconnecting', err?.message ?? '');
    c.end().catch(() => {});
    setTimeout(() => void reconnect(), retryMs);
    retryMs = Math.min(retryMs * 2, 5000);
  }

  async function reconnect() {
    if (closed) return;
    try {
      await connect();
      // Whatever was announced while we were away is unknown: everything is stale.
      for (const t of opts.topics) deliver(t, ALL_KEYS);
      opts.logger.info('database notification connection restored');
    } catch (err) {
      opts.logger.warn('reconnecting the database notification connection failed', err instanceof Error ? err.message : err);
      setTimeout(() => void reconnect(), retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    }
  }

  return {
    ready() {
      firstConnect ??= connect();
      return firstConnect;
    },
    publish(topic, key) {
      deliver(topic, key);
      const payload = JSON.stringify({ o: origin, t: topic, k: key });
      if (payload.length > MAX_PAYLOAD) {
        opts.logger.warn(`invalidation key too long to notify other processes (${topic})`);
        return Promise.resolve();
      }
      return opts.notify(INVALIDATION_CHANNEL, payload).then(
        () => undefined,
        (err: unknown) => opts.logger.error(`could not notify other processes (${topic}); their caches keep it until they expire`, err instanceof Error ? err.message : err),
      );
    },
    subscribe(topic, listener) {
      emitter.on(topic, listener);
      return () => emitter.off(topic, listener);
    },
    caughtUp,
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      settleSyncs(Infinity, false);
      await c?.end().catch(() => {});
    },
  };
}
