// Fixed-window rate limits with counters in the database (every app process shares them).
// A signed-in caller is counted by user id, others by address.
import { createMiddleware } from 'hono/factory';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Database } from '../../db/client';
import type { AppEnv } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { countHit } from './rate-limits.repository';

export interface RateLimitRule {
  /** Name stored in api_rate_limits.endpoint. */
  endpoint: string;
  max: number;
  windowSeconds: number;
}

export function clientAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

export function rateLimit(db: Database, clock: Clock, rule: RateLimitRule) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const viewer = c.get('viewer');
    const ip = clientAddress(c);
    const subject = viewer ? `user:${viewer.id}` : `ip:${ip ?? 'unknown'}`;
    const windowMs = rule.windowSeconds * 1000;
    const now = clock.now().getTime();
    const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
    const count = await countHit(db, { endpoint: rule.endpoint, subject, windowStart, userId: viewer?.id ?? null, ipAddress: ip });
    if (count > rule.max) {
      const retryAfter = Math.ceil((windowStart.getTime() + windowMs - now) / 1000);
      c.header('Retry-After', String(retryAfter));
      throw new AppError('RATE_LIMITED', undefined, { details: { retryAfter } });
    }
    await next();
  });
}
