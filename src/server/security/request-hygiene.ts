// Small request-path rules from the security review.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../auth/session';
import { AppError } from '../lib/errors';

/** POST /api/auth/change-password always revokes the user's other sessions. */
export function forceRevokeOtherSessions() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === 'POST') {
      const body = (await c.req.raw
        .clone()
        .json()
        .catch(() => null)) as Record<string, unknown> | null;
      if (body && typeof body === 'object' && !Array.isArray(body) && body.revokeOtherSessions !== true) {
        const headers = new Headers(c.req.raw.headers);
        headers.delete('content-length');
        let rewritten: string;
        try {
          rewritten = JSON.stringify({ ...body, revokeOtherSessions: true });
        } catch {
          // Nested past the call stack (thousands of levels): not a form anyone sends.
          throw new AppError('BAD_REQUEST');
        }
        c.req.raw = new Request(c.req.raw.url, { method: 'POST', headers, body: rewritten });
      }
    }
    await next();
  });
}
