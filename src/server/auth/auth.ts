// better-auth wired to our database: e-mail + password, sessions in an httpOnly SameSite cookie
// that refreshes itself. Admins listed in ADMIN_EMAILS are granted the role as they sign up.
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { account, session, user, verification } from '../db/schema/auth';
import type { Database } from '../db/client';
import type { Mailer } from './mailer';
import type { Logger } from '../lib/logger';
import { limits } from '../../shared/limits';
import { grantRoleIfListed } from './roles';

export interface AuthDeps {
  db: Database;
  secret: string;
  publicUrl: string;
  trustedOrigins: string[];
  adminEmails: string[];
  mailer: Mailer;
  logger: Logger;
  secureCookies: boolean;
}

export function createAuth(deps: AuthDeps) {
  const { db, mailer, logger } = deps;
  return betterAuth({
    appName: 'Kindred',
    baseURL: deps.publicUrl,
    basePath: '/api/auth',
    secret: deps.secret,
    trustedOrigins: deps.trustedOrigins,
    telemetry: { enabled: false },
    database: drizzleAdapter(db as never, { provider: 'pg', schema: { user, session, account, verification } }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: limits.passwordMin,
      maxPasswordLength: limits.passwordMax,
      // Without SMTP nobody could ever confirm, so the account works at once (the link is logged).
      requireEmailVerification: mailer.delivers,
      // The spec's flow: sign-up shows "Check your email..." and the person then signs in.
      autoSignIn: false,
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      async sendVerificationEmail({ user: u, url }) {
        try {
          await mailer.send({
            to: u.email,
            subject: 'Confirm your Kindred account',
            text: `Welcome to Kindred, ${u.name}!\n\nConfirm your e-mail address by opening this link:\n${url}\n`,
          });
        } catch (err) {
          logger.error(`could not send the confirmation e-mail to ${u.email}`, err);
        }
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    // Our own limiter (counters in the database) covers sign-up and sign-in.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: deps.secureCookies,
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (data) => {
            const email = String(data.email ?? '').trim().toLowerCase();
            const name = String(data.name ?? '').trim() || email.split('@')[0] || email;
            return { data: { ...data, email, name: name.slice(0, limits.displayNameMax) } };
          },
          after: async (created) => {
            await grantRoleIfListed(db, created.id, created.email, deps.adminEmails);
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
