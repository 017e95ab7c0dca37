// Rows that only matter for a while are removed once they no longer can: rate-limit windows
// (one per endpoint, subject and minute: about one per active person-minute, forever, before
// this), sign-in attempt records nobody can be judged by any more, expired sessions and expired
// e-mail links. Every app process runs it (the deletes are idempotent and cheap with their
// indexes). On the embedded database, which has no autovacuum, it then vacuums what autovacuum
// would (embedded-vacuum.ts), so the space of deleted rows is reused.
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client';
import type { Logger } from '../lib/logger';
import { vacuumEmbedded } from './embedded-vacuum';

/** Rate-limit windows are read for the last 24 hours (the admin's list); kept for two days. */
export const RATE_LIMIT_KEEP_MS = 48 * 60 * 60_000;
/** A failure older than this no longer counts towards any limit (they look back 15 minutes). */
export const SIGN_IN_FAILURE_KEEP_MS = 24 * 60 * 60_000;
/** An address a person signed in from is trusted for their account this long after (sign-in-guard). */
export const SIGN_IN_SUCCESS_KEEP_MS = 90 * 24 * 60 * 60_000;

export interface PruneCounts {
  rateLimitWindows: number;
  signInAttempts: number;
  sessions: number;
  verifications: number;
}

export async function pruneExpiredRows(database: Pick<DatabaseHandle, 'db' | 'kind'>, now: Date): Promise<PruneCounts> {
  const { db } = database;
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const count = async (statement: ReturnType<typeof sql>) => ((await db.execute(statement)) as unknown as { rows: unknown[] }).rows.length;
  const counts: PruneCounts = {
    rateLimitWindows: await count(sql`delete from api_rate_limits where window_start < ${before(RATE_LIMIT_KEEP_MS)} returning 1`),
    // Neither locked now, nor failing recently, nor a recent success (which makes the address
    // trusted for that account): nothing the guard decides by.
    signInAttempts: await count(sql`delete from auth_sign_in_attempts
      where (locked_until is null or locked_until < ${now.toISOString()})
        and (last_failure_at is null or last_failure_at < ${before(SIGN_IN_FAILURE_KEEP_MS)})
        and (last_success_at is null or last_success_at < ${before(SIGN_IN_SUCCESS_KEEP_MS)})
      returning 1`),
    sessions: await count(sql`delete from "session" where expires_at < ${now.toISOString()} returning 1`),
    verifications: await count(sql`delete from verification where expires_at < ${now.toISOString()} returning 1`),
  };
  return counts;
}

/** Prunes once shortly after start, then every `intervalMs`; stop() waits for a prune under way. */
export function startHousekeeping(opts: { database: Pick<DatabaseHandle, 'db' | 'kind'>; logger: Logger; intervalMs: number; now?: () => Date }): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  // The embedded database's first pass vacuums every table (its statistics start empty).
  let vacuumEverything = true;
  const housekeep = async () => {
    const counts = await pruneExpiredRows(opts.database, opts.now?.() ?? new Date());
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    if (total > 0) opts.logger.info(`housekeeping removed ${total} expired rows (${JSON.stringify(counts)})`);
    if (opts.database.kind !== 'pglite') return;
    const started = Date.now();
    const vacuumed = await vacuumEmbedded(opts.database.db, { everything: vacuumEverything });
    vacuumEverything = false;
    if (vacuumed.length > 0) opts.logger.info(`housekeeping vacuumed ${vacuumed.length} tables in ${Date.now() - started} ms (${vacuumed.join(', ')})`);
  };
  const run = () => {
    if (running) return;
    running = housekeep()
      .catch((err: unknown) => opts.logger.warn('housekeeping failed; it will try again', err))
      .finally(() => (running = undefined));
  };
  // The first run waits a minute so a start-up's own work goes first; neither timer keeps the
  // process alive.
  const first = setTimeout(run, Math.min(60_000, opts.intervalMs));
  const every = setInterval(run, opts.intervalMs);
  first.unref();
  every.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
