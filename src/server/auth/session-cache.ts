// Who a session cookie belongs to, remembered for a few seconds so the chat path does not spend a
// database round trip on every request just to learn what it learned a moment ago (issue 19).
//
// Safety: an entry is dropped the moment anything changes the user's sessions. The auth routes
// publish `session/<userId>` on the invalidation bus after every signed-in POST (sign-out, change
// password revoking the others, revoke-session(s), delete-user, update-user), and every cache
// (in this process or, once the bus is LISTEN/NOTIFY-backed, in the others) drops all of that
// user's entries. A change made behind the app's back (an operator deleting a row) is caught by
// the short TTL backstop. The access check itself still runs on every request: only the lookup
// of "which user is this cookie" is cached, never the decision.
//
// Another process's notice is in transit for a moment after that process answered (its sign-out
// can be answered before this process has heard), so an entry is only answered once the bus says
// it has caught up with everything published before the request (InvalidationBus.caughtUp).
import { ALL_KEYS, invalidationBus } from '../lib/invalidation-bus';
import type { Viewer } from './session';

/** Backstop for changes nobody announced; short enough that a removed row stops working soon. */
export const SESSION_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  viewer: Viewer;
  until: number;
}

export interface SessionCache {
  /** The cached viewer, once every session change published before the call has been heard. */
  get(token: string): Promise<Viewer | null>;
  /** Starts a lookup; `store` keeps its result only if nothing was invalidated meanwhile. */
  begin(): { store(token: string, viewer: Viewer, sessionExpiresAt: number): void };
  close(): void;
}

export function createSessionCache(now: () => number = () => performance.timeOrigin + performance.now()): SessionCache {
  const entries = new Map<string, Entry>();
  const tokensByUser = new Map<string, Set<string>>();
  // Bumped on every invalidation: a lookup that read the database before a sign-out finished must
  // not put the signed-out session back after the sign-out dropped it.
  let generation = 0;

  function drop(token: string) {
    const e = entries.get(token);
    if (!e) return;
    entries.delete(token);
    const set = tokensByUser.get(e.viewer.id);
    set?.delete(token);
    if (set?.size === 0) tokensByUser.delete(e.viewer.id);
  }

  const bus = invalidationBus();
  const unsubscribe = bus.subscribe('session', (userId) => {
    generation++;
    // Notices may have been missed (another process's sign-outs): forget every session.
    if (userId === ALL_KEYS) {
      entries.clear();
      tokensByUser.clear();
      return;
    }
    for (const token of tokensByUser.get(userId) ?? []) entries.delete(token);
    tokensByUser.delete(userId);
  });

  function current(token: string): Viewer | null {
    const e = entries.get(token);
    if (!e) return null;
    if (e.until <= now()) {
      drop(token);
      return null;
    }
    return e.viewer;
  }

  return {
    async get(token) {
      if (!current(token)) return null;
      // Unsure whether a sign-out is still in transit: the database answers instead.
      if (!(await bus.caughtUp())) return null;
      // Asked again: a notice heard while catching up has dropped the entry.
      return current(token);
    },
    begin() {
      const started = generation;
      return {
        store(token, viewer, sessionExpiresAt) {
          if (generation !== started) return;
          if (entries.size >= MAX_ENTRIES) drop(entries.keys().next().value!);
          drop(token);
          entries.set(token, { viewer, until: Math.min(now() + SESSION_CACHE_TTL_MS, sessionExpiresAt) });
          let set = tokensByUser.get(viewer.id);
          if (!set) tokensByUser.set(viewer.id, (set = new Set()));
          set.add(token);
        },
      };
    },
    close: unsubscribe,
  };
}

/**
 * The session token cookie's value (plain or __Secure- prefixed), the cache key. Null (no caching,
 * the library decides) unless exactly one such cookie is sent, so the key is always the very
 * cookie the library read.
 */
export function sessionTokenFrom(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const found = [...cookieHeader.matchAll(/(?:^|;)\s*(?:__Secure-)?better-auth\.session_token=([^;]*)/g)];
  return found.length === 1 && found[0]![1] ? found[0]![1].trim() : null;
}
