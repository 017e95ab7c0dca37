// Sign-in limits keyed by who is targeted and where from, never by a session cookie (an attacker
// signed in as someone else, or chaining fresh accounts, used to get a fresh budget):
//  - per account and client address: after SIGN_IN_FAILURES_BEFORE_BACKOFF wrong passwords,
//    each further try waits 1 s, 2 s, 4 s ... up to 15 minutes (a success clears it);
//  - per account from every address: past SIGN_IN_FAILURES_PER_ACCOUNT failures in 15 minutes
//    only addresses the account has signed in from before may try (its owner is not locked out);
//  - per address over every account: past RATE_LIMIT_AUTH_PER_15MIN failures in 15 minutes, the
//    same exception.
// Failures are recorded after the auth library answers 401 (never its 403 "Email not verified",
// which comes only after the right password); state lives in the database
// (auth_sign_in_attempts), so every app process applies the same limits. Within a process, the
// attempts on one account, and those from one address, take turns (check, sign-in, record), so
// sixty wrong passwords sent at once are judged one after another, each seeing the failures
// before it (at once, forty of them used to get through a limit of five). Across processes each
// process takes its own turns: the limits are then exceeded at most by the number of processes.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Database } from '../db/client';
import { authSignInAttempts } from '../db/schema/security';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { messages } from '../../shared/messages';
import type { AppEnv } from '../auth/session';
import { clientAddress } from './client-address';
import { bodyField } from './json-text-guard';

const WINDOW_MS = 15 * 60_000;
const MAX_BACKOFF_S = 15 * 60;

export interface SignInGuardRules {
  failuresBeforeBackoff: number;
  failuresPerAccount: number;
  failuresPerAddress: number;
}

/** Seconds to wait after the `failures`-th consecutive failure of one pair. */
export function backoffSeconds(failures: number, before: number): number {
  if (failures < before) return 0;
  return Math.min(MAX_BACKOFF_S, 2 ** (failures - before));
}

async function targetEmail(c: Context): Promise<string | null> {
  // JSON or form-encoded: the auth library takes both, so the guard reads both (a form-encoded
  // sign-in once went past it).
  const email = await bodyField(c, 'email');
  return email ? email.trim().toLowerCase().slice(0, 320) : null;
}

function tooMany(c: Context, seconds: number): never {
  const wait = Math.max(1, Math.ceil(seconds));
  c.header('Retry-After', String(wait));
  throw new AppError('RATE_LIMITED', messages.auth.signInBackoff(wait), { details: { retryAfter: wait } });
}

/** Runs `work` after every earlier call with the same key has finished (a queue per key). */
export function createTurns() {
  const tails = new Map<string, Promise<void>>();
  return async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = tails.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => mine);
    tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      done();
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

/** Wraps the auth library's email sign-in: checks before, records after, one attempt at a time per account and per address. */
export function signInGuard(db: Database, clock: Clock, rules: SignInGuardRules) {
  const inTurn = createTurns();
  return async (c: Context<AppEnv>, next: () => Promise<void>) => {
    const email = await targetEmail(c);
    if (!email) return next(); // the auth library answers a malformed body itself
    const ip = clientAddress(c) ?? 'unknown';
    // Always the account's turn first, then the address's: no two attempts wait on each other in a circle.
    return inTurn(`account:${email}`, () => inTurn(`address:${ip}`, () => guarded(c, next, email, ip)));
  };

  async function guarded(c: Context<AppEnv>, next: () => Promise<void>, email: string, ip: string) {
    const now = clock.now();
    const since = new Date(now.getTime() - WINDOW_MS);
    const pair = (
      await db
        .select()
        .from(authSignInAttempts)
        .where(and(eq(authSignInAttempts.email, email), eq(authSignInAttempts.ipAddress, ip)))
    )[0];
    if (pair?.lockedUntil && pair.lockedUntil > now) tooMany(c, (pair.lockedUntil.getTime() - now.getTime()) / 1000);
    const trustedPair = Boolean(pair?.lastSuccessAt);
    if (!trustedPair) {
      const [account] = await db
        .select({ failures: sql<number>`coalesce(sum(${authSignInAttempts.failures}), 0)::int` })
        .from(authSignInAttempts)
        .where(and(eq(authSignInAttempts.email, email), gt(authSignInAttempts.lastFailureAt, since)));
      if (Number(account?.failures ?? 0) >= rules.failuresPerAccount) tooMany(c, WINDOW_MS / 1000);
      const [address] = await db
        .select({ failures: sql<number>`coalesce(sum(${authSignInAttempts.failures}), 0)::int` })
        .from(authSignInAttempts)
        .where(and(eq(authSignInAttempts.ipAddress, ip), gt(authSignInAttempts.lastFailureAt, since)));
      if (Number(address?.failures ?? 0) >= rules.failuresPerAddress) tooMany(c, WINDOW_MS / 1000);
    }

    await next();

    const status = c.res.status;
    if (status >= 200 && status < 300) {
      await db
        .insert(authSignInAttempts)
        .values({ email, ipAddress: ip, failures: 0, lastSuccessAt: now })
        .onConflictDoUpdate({
          target: [authSignInAttempts.email, authSignInAttempts.ipAddress],
          set: { failures: 0, lockedUntil: null, lastSuccessAt: now },
        });
    } else if (status === 401) {
      // A wrong password or unknown account; "Email not verified" (403) is not counted: it locked
      // out people retrying while they waited for their confirmation mail. Failures older than
      // the window start the count again.
      const failures = sql`case when ${authSignInAttempts.lastFailureAt} is null or ${authSignInAttempts.lastFailureAt} <= ${since} then 1 else ${authSignInAttempts.failures} + 1 end`;
      const [row] = await db
        .insert(authSignInAttempts)
        .values({ email, ipAddress: ip, failures: 1, lastFailureAt: now })
        .onConflictDoUpdate({
          target: [authSignInAttempts.email, authSignInAttempts.ipAddress],
          set: { failures, lastFailureAt: now },
        })
        .returning({ failures: authSignInAttempts.failures });
      const wait = backoffSeconds(row?.failures ?? 1, rules.failuresBeforeBackoff);
      if (wait > 0) {
        await db
          .update(authSignInAttempts)
          .set({ lockedUntil: new Date(now.getTime() + wait * 1000) })
          .where(and(eq(authSignInAttempts.email, email), eq(authSignInAttempts.ipAddress, ip)));
      }
    }
  }
}
