import { pgTable, text, integer, timestamp, primaryKey, index } from 'drizzle-orm/pg-core';

// Sign-in attempts per target account and client address (security/sign-in-guard.ts): failures
// back off exponentially per pair, and a pair that signed in before keeps its access while an
// attacker elsewhere fails against the same account.
export const authSignInAttempts = pgTable(
  'auth_sign_in_attempts',
  {
    email: text('email').notNull(),
    ipAddress: text('ip_address').notNull(),
    failures: integer('failures').notNull().default(0),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.email, t.ipAddress] }), index('auth_sign_in_attempts_ip_idx').on(t.ipAddress, t.lastFailureAt)],
);
