// Small request-path rules from the security review.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../auth/session';

/**
 * A 413 is sent before the body is read, so the rest of that body is still on its way: answer it
 * with Connection: close (Node then closes the socket once the answer is out) instead of
 * "keep-alive", so a keep-alive client opens a fresh connection for its next request rather than
 * reusing one the server is about to drop (which it saw as ECONNRESET).
 */
export function closeAfterTooLarge() {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.res.status === 413) c.res.headers.set('Connection', 'close');
  });
}

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
        c.req.raw = new Request(c.req.raw.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ ...body, revokeOtherSessions: true }),
        });
      }
    }
    await next();
  });
}
