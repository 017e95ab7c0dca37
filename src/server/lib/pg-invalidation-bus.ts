// The invalidation bus when several app processes share one PostgreSQL: publish() tells this
// process's subscribers at once and sends NOTIFY on the kindred_invalidate channel (through the
// shared pool, so a publish never waits for the listener connection); one dedicated connection per
// process LISTENs and hands other processes' notices to local subscribers. The listener reconnects
// after an error with backoff; notices sent while it was away are lost, so on reconnecting it tells
// every subscriber "*" (drop everything of this topic) rather than leave a cache stale.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Logger } from './logger';
import type { InvalidationBus, InvalidationTopic } from './invalidation-bus';

export const INVALIDATION_CHANNEL = 'kindred_invalidate';
/** NOTIFY payloads must stay under 8000 bytes; keys are ids, far below that. */
const MAX_PAYLOAD = 7900;
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

  const deliver = (topic: string, key: string) => void emitter.emit(topic, key);

  async function connect(): Promise<void> {
    // TCP keepalive: a connection a firewall or NAT dropped without a reset would otherwise look
    // alive forever, and this process would never hear another notice (nor reconnect).
    const c = new pg.Client({ connectionString: opts.databaseUrl, application_name: 'kindred-listener', keepAlive: true, keepAliveInitialDelayMillis: 30_000 });
    c.on('notification', (msg) => {
      if (msg.channel !== INVALIDATION_CHANNEL || !msg.payload) return;
      try {
        const { o, t, k } = JSON.parse(msg.payload) as { o: string; t: string; k: string };
        if (o !== origin) deliver(t, k);
      } catch {
        /* not ours */
      }
    });
    const lost = (err?: Error) => {
      if (client !== c || closed) return;
      client = undefined;
      opts.logger.warn('the database notification connection was lost; reconnecting', err?.message ?? '');
      c.end().catch(() => {});
      setTimeout(() => void reconnect(), retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    await c.connect();
    await c.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    retryMs = 250;
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
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
