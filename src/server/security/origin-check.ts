// Cross-origin writes: a state-changing request (anything but GET, HEAD, OPTIONS) whose Origin,
// or Referer when a browser sent no Origin, is not the app's own origin is refused with 403.
// SameSite=Lax cookies stop other sites, but not a page on another port of the same host (same
// site, different origin): without this, such a page could upload into a victim's personality.
// A request with neither header does not come from a browser page (curl, scripts) and carries no
// ambient cookie risk, so it passes. The auth library's routes apply the same rule themselves.
// WebSocket handshakes (GET with Upgrade: websocket) are checked the same way: browsers always
// send Origin on them, and a page on another port must not open the victim's voice socket.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../auth/session';
import { AppError } from '../lib/errors';
import { messages } from '../../shared/messages';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | undefined): string | null | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'null') return null; // sandboxed frames, file: pages, some redirects
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

export function sameOriginWrites(trustedOrigins: string[]) {
  const allowed = new Set(trustedOrigins);
  return createMiddleware<AppEnv>(async (c, next) => {
    // A WebSocket handshake is a GET, but it carries the cookies and opens a two-way channel
    // (cross-site WebSocket hijacking): it gets the same rule as a write.
    const upgrade = /\bwebsocket\b/i.test(c.req.header('upgrade') ?? '');
    if (!SAFE_METHODS.has(c.req.method) || upgrade) {
      const origin = originOf(c.req.header('origin'));
      const source = origin !== undefined ? origin : originOf(c.req.header('referer'));
      if (source !== undefined && (source === null || !allowed.has(source))) {
        throw new AppError('FORBIDDEN', messages.errors.crossOrigin);
      }
    }
    await next();
  });
}
