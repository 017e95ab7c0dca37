// Fixed-window rate limits with counters in the database (every app process shares them).
// A signed-in caller is counted by user id, others by address.
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { Database } from '../../db/client';
import type { AppEnv } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { countHit } from './rate-limits.repository';
import { clientAddress } from '../../security/client-address';
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

/** Counts this request's hit and throws RATE_LIMITED (with Retry-After) past the limit. */
async function countAndCheck(db: Database, clock: Clock, rule: RateLimitRule, c: Context<AppEnv>): Promise<void> {
  const viewer = c.get('viewer');
  const ip = clientAddress(c);
  const subject = viewer && rule.by !== 'address' ? `user:${viewer.id}` : `ip:${ip ?? 'unknown'}`;
  const windowMs = rule.windowSeconds * 1000;
  const now = clock.now().getTime();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const hit = { endpoint: rule.endpoint, windowStart, userId: viewer?.id ?? null, ipAddress: ip };
  let count = await timed(c, 'limit', () => countHit(db, { ...hit, subject }));
  const extra = rule.alsoBy ? await rule.alsoBy(c) : undefined;
  if (extra !== undefined) count = Math.max(count, await countHit(db, { ...hit, subject: extra }));
  if (count > rule.max) {
    const retryAfter = Math.ceil((windowStart.getTime() + windowMs - now) / 1000);
    // Once a streamed answer has started (open mic's turn counts speech per sentence), its event says why instead.
    if (!c.finalized) c.header('Retry-After', String(retryAfter));
    throw new AppError('RATE_LIMITED', undefined, { details: { retryAfter } });
  }
}

export function rateLimit(db: Database, clock: Clock, rule: RateLimitRule) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await countAndCheck(db, clock, rule, c);
    await next();
  });
}

/**
 * The same limit, counted beside the route's own reads instead of before them (the chat path,
 * issue 19: the counter's write is a round trip the first token need not wait for on its own).
 * The route must call `rateLimitVerdict(c)` and await it before it does anything that costs (the
 * model call) or answers: the decision is still the database's atomic count, so it holds across
 * every app process, and a refused request still gets its 429 before any byte of a reply.
 */
export function rateLimitBeside(db: Database, clock: Clock, rule: RateLimitRule) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const verdict = countAndCheck(db, clock, rule, c);
    verdict.catch(() => {}); // awaited by the route (rateLimitVerdict); never "unhandled" meanwhile
    c.set('rateLimitVerdict', verdict);
    await next();
  });
}

/** The pending decision of rateLimitBeside; a route without one is refused (it was mounted wrong). */
export function rateLimitVerdict(c: Context<AppEnv>): Promise<void> {
  return c.get('rateLimitVerdict') ?? Promise.reject(new Error('rateLimitBeside is not mounted on this route'));
}

/**
 * The same count and check, run when a route decides (open mic's turn counts the speech-to-text,
 * chat and speech limits of the routes it stands for, the speech one per sentence as it speaks).
 */
export function rateLimitCounter(db: Database, clock: Clock, rule: RateLimitRule): (c: Context<AppEnv>) => Promise<void> {
  return (c) => countAndCheck(db, clock, rule, c);
}
