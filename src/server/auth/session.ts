// Who is asking: resolved once per request from the session cookie. Routes then call
// requireUser / requireAdmin; nothing downstream trusts a user id sent by the client.
import { createMiddleware } from 'hono/factory';
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

/** The signed-in person behind the cookie, from the session cache when it knows (session-cache.ts). */
async function resolveViewer(auth: Auth, headers: Headers, cache: SessionCache | undefined): Promise<Viewer | null> {
  const token = cache ? sessionTokenFrom(headers.get('cookie')) : null;
  if (!token) return lookup(auth, headers);
  const cached = cache!.get(token);
  if (cached) return cached;
  const pending = cache!.begin();
  const found = await auth.api.getSession({ headers }).catch(() => null);
  if (!found?.user) return null;
  const viewer = { id: found.user.id, email: found.user.email, name: found.user.name };
  pending.store(token, viewer, new Date(found.session.expiresAt).getTime());
  return viewer;
}

async function lookup(auth: Auth, headers: Headers): Promise<Viewer | null> {
  const found = await auth.api.getSession({ headers }).catch(() => null);
  return found?.user ? { id: found.user.id, email: found.user.email, name: found.user.name } : null;
}

export function sessionMiddleware(auth: Auth, db: Database, cache?: SessionCache) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const headers = c.req.raw.headers;
    const viewer = await resolveViewer(auth, headers, cache);
    c.set('viewer', viewer);
    c.set('sessionStillValid', async () => {
      if (!viewer) return true;
      const again = await auth.api.getSession({ headers, query: { disableCookieCache: true } }).catch(() => null);
      return again?.user?.id === viewer.id;
    });
    let adminCheck: Promise<boolean> | undefined;
    c.set('isAdmin', () => {
      if (!viewer) return Promise.resolve(false);
      adminCheck ??= isAdmin(db, viewer.id);
      return adminCheck;
    });
    await next();
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
