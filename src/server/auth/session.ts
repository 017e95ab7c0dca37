// Who is asking: resolved once per request from the session cookie. Routes then call
// requireUser / requireAdmin; nothing downstream trusts a user id sent by the client.
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { Auth } from './auth';
import type { Database } from '../db/client';
import { isAdmin } from './roles';
import { AppError } from '../lib/errors';
import { messages } from '../../shared/messages';
import type { SessionCache } from './session-cache';
import { sessionTokenFrom } from './session-cache';
import type { PendingHit } from '../modules/rate-limits/rate-limits.middleware';

export interface Viewer {
  id: string;
  email: string;
  name: string;
}

export interface SessionVariables {
  viewer: Viewer | null;
  /** Lazily checks the admin role (one query, cached for the request). */
  isAdmin: () => Promise<boolean>;
  /** The client's address (security/client-address.ts: X-Forwarded-For only from TRUSTED_PROXIES). */
  clientIp?: string | null;
  /** Whether the session this request came with is still signed in (long-lived streams re-check it). */
  sessionStillValid: () => Promise<boolean>;
  /** A rate limit the route counts in its own statement (rate-limits.middleware.ts: rateLimitBeside). */
  pendingHit?: PendingHit;
}

export type AppEnv = { Variables: SessionVariables };

/** Who is signed in, and the cookie renewing their session when the library just renewed it. */
interface Resolved {
  viewer: Viewer | null;
  /** Set-Cookie values renewing the session token (empty unless a renewal happened now). */
  renewal: string[];
}

const SESSION_TOKEN_COOKIE = /^(?:__Secure-)?better-auth\.session_token=/;

/** The session-token cookies of `headers` that give it a new lifetime (never a deletion). */
function renewalCookies(headers: Headers | null | undefined): string[] {
  if (!headers) return [];
  return headers.getSetCookie().filter((cookie) => {
    if (!SESSION_TOKEN_COOKIE.test(cookie)) return false;
    const maxAge = cookie.match(/;\s*max-age=(-?\d+)/i);
    return maxAge ? Number(maxAge[1]) > 0 : false;
  });
}

/** The signed-in person behind the cookie, from the session cache when it knows (session-cache.ts). */
async function resolveViewer(auth: Auth, headers: Headers, cache: SessionCache | undefined): Promise<Resolved> {
  const token = cache ? sessionTokenFrom(headers.get('cookie')) : null;
  if (!token) return lookup(auth, headers);
  const cached = await cache!.get(token);
  // A cached entry lives seconds (SESSION_CACHE_TTL_MS): the daily renewal waits at most that long.
  if (cached) return { viewer: cached, renewal: [] };
  const pending = cache!.begin();
  const found = await sessionOf(auth, headers);
  if (!found) return { viewer: null, renewal: [] };
  pending.store(token, found.viewer, found.expiresAt);
  return { viewer: found.viewer, renewal: found.renewal };
}

async function lookup(auth: Auth, headers: Headers): Promise<Resolved> {
  const found = await sessionOf(auth, headers);
  return found ? { viewer: found.viewer, renewal: found.renewal } : { viewer: null, renewal: [] };
}

/**
 * The library's session read. Once a day (session.updateAge) it pushes the session's expiry
 * forward in the database and answers the renewed cookie in its headers: those are kept, for the
 * response to carry (the web app reads the session through /api/me, never /api/auth/get-session,
 * so without them the cookie kept its sign-in lifetime and everyone was signed out 30 days on).
 */
async function sessionOf(auth: Auth, headers: Headers): Promise<{ viewer: Viewer; expiresAt: number; renewal: string[] } | null> {
  const answer = await auth.api.getSession({ headers, returnHeaders: true }).catch(() => null);
  if (!answer?.response?.user) return null;
  const found = answer.response;
  return {
    viewer: { id: found.user.id, email: found.user.email, name: found.user.name },
    expiresAt: new Date(found.session.expiresAt).getTime(),
    renewal: renewalCookies(answer.headers),
  };
}

/**
 * Adds the renewed session cookie to the route's response, unless the route set the session
 * cookie itself (sign-in, sign-out: its cookie is the one that counts, and a renewal after a
 * sign-out's deletion would put the ended session back in the browser).
 */
function passOnRenewal(c: Context, renewal: string[]): void {
  if (c.res.headers.getSetCookie().some((cookie) => SESSION_TOKEN_COOKIE.test(cookie))) return;
  try {
    for (const cookie of renewal) c.res.headers.append('Set-Cookie', cookie);
  } catch {
    // A response with immutable headers (one passed through from a fetch): a copy carries them.
    const copy = new Response(c.res.body, c.res);
    for (const cookie of renewal) copy.headers.append('Set-Cookie', cookie);
    c.res = undefined;
    c.res = copy;
  }
}

export function sessionMiddleware(auth: Auth, db: Database, cache?: SessionCache) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const headers = c.req.raw.headers;
    const { viewer, renewal } = await resolveViewer(auth, headers, cache);
    c.set('viewer', viewer);
    c.set('sessionStillValid', async () => {
      if (!viewer) return true;
      // disableRefresh: this answer's renewed cookie would reach no browser (the stream's headers
      // are long sent), and renewing here would leave the day's next request nothing to renew.
      const again = await auth.api.getSession({ headers, query: { disableCookieCache: true, disableRefresh: true } }).catch(() => null);
      return again?.user?.id === viewer.id;
    });
    let adminCheck: Promise<boolean> | undefined;
    c.set('isAdmin', () => {
      if (!viewer) return Promise.resolve(false);
      adminCheck ??= isAdmin(db, viewer.id);
      return adminCheck;
    });
    await next();
    if (renewal.length > 0) passOnRenewal(c, renewal);
  });
}

export function requireViewer(viewer: Viewer | null): Viewer {
  if (!viewer) throw new AppError('UNAUTHENTICATED', messages.auth.required);
  return viewer;
}

export async function requireAdmin(viewer: Viewer | null, checkAdmin: () => Promise<boolean>): Promise<Viewer> {
  const v = requireViewer(viewer);
  if (!(await checkAdmin())) throw new AppError('FORBIDDEN', messages.admin.adminOnly);
  return v;
}

/**
 * Admin check (cached per request) as route middleware, so it runs before validation: a non-admin
 * learns nothing from the shape of their request. Attached per route rather than with
 * router.use('*'), which would also cover other modules mounted under /api/admin.
 */
export const adminOnly = createMiddleware<AppEnv>(async (c, next) => {
  await requireAdmin(c.get('viewer'), c.get('isAdmin'));
  await next();
});
