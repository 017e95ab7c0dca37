// At most UPLOADS_AT_ONCE_PER_CLIENT upload bodies read at once per address (an IPv6 address by its
// /64) and per signed-in user, in this process. Each holds a connection while it arrives and, for
// the ones used at once (a voice turn, a clone sample, a card), up to its size limit in memory; a
// client dripping a byte now and then keeps it open for minutes, since the idle limit
// (UPLOAD_IDLE_TIMEOUT_MS) restarts with every byte. The hourly and per-minute budgets count
// requests started, not requests open, so without this one address could hold hundreds of them.
// The web app sends two files at a time; the default leaves room for a few people behind one
// address (an office, a school).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../auth/session';
import { AppError } from '../lib/errors';
import { messages } from '../../shared/messages';
import { clientLimitKey } from './client-address';
import { createOpenCounts } from './open-counts';

export function uploadsAtOnce(max: number): MiddlewareHandler<AppEnv> {
  const open = createOpenCounts();
  return async (c, next) => {
    const viewer = c.get('viewer');
    const keys = [`ip:${clientLimitKey(c)}`, ...(viewer ? [`user:${viewer.id}`] : [])];
    const release = open.hold(keys, max);
    if (!release) throw new AppError('RATE_LIMITED', messages.errors.tooManyUploadsAtOnce);
    // The handlers read the whole body before they answer (a voice turn before its reply starts
    // streaming), so the body is done with once next() returns.
    try {
      await next();
    } finally {
      release();
    }
  };
}
