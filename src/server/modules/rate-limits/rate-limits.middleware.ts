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

export function rateLimit(db: Database, clock: Clock, rule: RateLimitRule) {
  return createMiddleware<AppEnv>(async (c, next) => {
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
      c.header('Retry-After', String(retryAfter));
      throw new AppError('RATE_LIMITED', undefined, { details: { retryAfter } });
    }
    await next();
  });
}
