// Fixed-window rate limits with counters in the database (every app process shares them).
// A signed-in caller is counted by user id, others by address.
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { Database } from '../../db/client';
import type { AppEnv } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { countHit, countHits, countHitsSql, type Hit } from './rate-limits.repository';
import type { SQL } from 'drizzle-orm';
import { clientAddress, limitKey } from '../../security/client-address';
import { timed } from '../../lib/server-timing';

export interface RateLimitRule {
  /** Name stored in api_rate_limits.endpoint. */
  endpoint: string;
  max: number;
  windowSeconds: number;
  /**
   * Who is counted: 'viewer' (default) a signed-in caller by user id, others by address;
   * 'address' always the client address, whatever cookie comes along (sign-up, e-mail sending).
   */
  by?: 'viewer' | 'address';
  /**
   * A second subject counted in its own window (e.g. the target e-mail of a verification mail):
   * read from the request; undefined skips it.
   */
  alsoBy?: (c: Context<AppEnv>) => Promise<string | undefined>;
}

export { clientAddress };

/** This request's hit of `rule`'s current window: who is counted, and when the window began. */
function hitOf(clock: Clock, rule: RateLimitRule, c: Context<AppEnv>): { hit: Hit; now: number; windowMs: number } {
  const viewer = c.get('viewer');
  const ip = clientAddress(c);
  const subject = viewer && rule.by !== 'address' ? `user:${viewer.id}` : `ip:${limitKey(ip)}`;
  const windowMs = rule.windowSeconds * 1000;
  const now = clock.now().getTime();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  return { hit: { endpoint: rule.endpoint, subject, windowStart, userId: viewer?.id ?? null, ipAddress: ip }, now, windowMs };
}

/** Throws RATE_LIMITED (with Retry-After) when the window's count is past the rule's limit. */
function refuseOver(c: Context<AppEnv>, rule: RateLimitRule, counted: { now: number; windowMs: number; hit: Hit }, count: number): void {
  if (count <= rule.max) return;
  const retryAfter = Math.ceil((counted.hit.windowStart.getTime() + counted.windowMs - counted.now) / 1000);
  // Once a streamed answer has started (open mic's turn counts speech per sentence), its event says why instead.
  if (!c.finalized) c.header('Retry-After', String(retryAfter));
  throw new AppError('RATE_LIMITED', undefined, { details: { retryAfter } });
}

/** Counts this request's hit and throws RATE_LIMITED (with Retry-After) past the limit. */
async function countAndCheck(db: Database, clock: Clock, rule: RateLimitRule, c: Context<AppEnv>): Promise<void> {
  const counted = hitOf(clock, rule, c);
  let count = await timed(c, 'limit', () => countHit(db, counted.hit));
  const extra = rule.alsoBy ? await rule.alsoBy(c) : undefined;
  if (extra !== undefined) count = Math.max(count, await countHit(db, { ...counted.hit, subject: extra }));
  refuseOver(c, rule, counted, count);
}

export function rateLimit(db: Database, clock: Clock, rule: RateLimitRule) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await countAndCheck(db, clock, rule, c);
    await next();
  });
}

/**
 * A limit's hit that the route counts inside a statement it runs anyway (the chat's first read,
 * issue 19: one round trip fewer before the first token). `sql` is the upsert as a data-modifying
 * WITH returning the window's `count` (countHitsSql); `check` throws RATE_LIMITED past the limit.
 * A path that runs no such statement counts it on its own with `alone`. Either way the decision is
 * the database's atomic count, so it holds across every app process, and it is made before
 * anything else is decided: a refused request gets its 429 before any byte of a reply.
 */
export interface PendingHit {
  sql: SQL;
  check(count: number): void;
  alone(): Promise<void>;
}

/** Mounts `rule` for the route to count with its own statement (pendingHit). */
export function rateLimitBeside(db: Database, clock: Clock, rule: RateLimitRule) {
  if (rule.alsoBy) throw new Error('a limit counted beside a route has one subject');
  return createMiddleware<AppEnv>(async (c, next) => {
    const counted = hitOf(clock, rule, c);
    c.set('pendingHit', {
      sql: countHitsSql([counted.hit]),
      check: (count) => refuseOver(c, rule, counted, count),
      alone: async () => refuseOver(c, rule, counted, await timed(c, 'limit', () => countHit(db, counted.hit))),
    });
    await next();
  });
}

/** The hit rateLimitBeside mounted; a route without one is refused (it was mounted wrong). */
export function pendingHit(c: Context<AppEnv>): PendingHit {
  const hit = c.get('pendingHit');
  if (!hit) throw new Error('rateLimitBeside is not mounted on this route');
  return hit;
}

/**
 * The same count and check, run when a route decides (open mic's turn counts the speech-to-text,
 * chat and speech limits of the routes it stands for, the speech one per sentence as it speaks).
 */
export function rateLimitCounter(db: Database, clock: Clock, rule: RateLimitRule): (c: Context<AppEnv>) => Promise<void> {
  return (c) => countAndCheck(db, clock, rule, c);
}

/**
 * Several limits counted in one statement (open mic's turn: the speech-to-text and chat limits of
 * the routes it stands for). Resolves to each rule's refusal (RATE_LIMITED, or undefined), in the
 * order of `rules`; the caller decides which one answers.
 */
export function rateLimitsCounter(db: Database, clock: Clock, rules: RateLimitRule[]): (c: Context<AppEnv>) => Promise<(AppError | undefined)[]> {
  if (rules.some((r) => r.alsoBy)) throw new Error('limits counted together have one subject each');
  return async (c) => {
    const counted = rules.map((rule) => hitOf(clock, rule, c));
    const counts = await timed(c, 'limit', () => countHits(db, counted.map((x) => x.hit)));
    return rules.map((rule, i) => {
      try {
        refuseOver(c, rule, counted[i]!, counts[i]!);
        return undefined;
      } catch (err) {
        if (err instanceof AppError) return err;
        throw err;
      }
    });
  };
}
