// better-auth wired to our database: e-mail + password, sessions in an httpOnly SameSite cookie
// that refreshes itself. Admins listed in ADMIN_EMAILS are granted the role once their address is
// confirmed (at sign-up without a mail server, when the link is opened with one).
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { account, session, user, verification } from '../db/schema/auth';
import type { Database } from '../db/client';
import type { Mailer } from './mailer';
import type { Logger } from '../lib/logger';
import { limits } from '../../shared/limits';
import { messages } from '../../shared/messages';
import { headOf } from '../../shared/text/cut';
import { cleanName, isBlank } from '../../shared/text/visible';
import { findUserIdByEmail, grantRoleIfListed } from './roles';
import { systemClock, type Clock } from '../lib/clock';
import { CONFIRMATION_LINK_VALID_S, confirmationMail, resendConfirmationOnSignIn } from './confirmation-mail';

/** RATE_LIMIT_VERIFICATION_EMAIL_PER_HOUR's default, for a caller that does not pass the configured value. */
const DEFAULT_CONFIRMATION_MAILS_PER_HOUR = 5;

export interface AuthDeps {
  db: Database;
  secret: string;
  publicUrl: string;
  trustedOrigins: string[];
  adminEmails: string[];
  mailer: Mailer;
  logger: Logger;
  secureCookies: boolean;
  /** Time of the confirmation-mail budget's windows (the system clock unless given). */
  clock?: Clock;
  /** Confirmation mails one address may be sent per hour (config.rateLimits.verificationEmailPerHour). */
  verificationEmailPerHour?: number;
  /** Runs before a person's own account deletion removes the user row (modules/me/account-deletion.ts). */
  beforeDeleteUser?: (user: { id: string; email: string; name: string }) => Promise<void>;
}

export function createAuth(deps: AuthDeps) {
  const { db, mailer, logger } = deps;
  const sendConfirmation = async (to: { email: string; name: string }, url: string) => {
    await mailer.send({ to: to.email, ...confirmationMail(to.name, url) });
  };
  if (!mailer.delivers) {
    logger.info('no mail server is configured (SMTP_URL unset): accounts are confirmed automatically and signed in at sign-up');
  }
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
      // Without SMTP nobody could ever confirm, so the account is confirmed at sign-up (below).
      requireEmailVerification: mailer.delivers,
      // With mail, the spec's flow: sign-up shows "Check your email..." and waits for the link.
      // Without, no link can ever arrive: the person is signed in straight after sign-up.
      autoSignIn: !mailer.delivers,
    },
    emailVerification: {
      sendOnSignUp: mailer.delivers,
      // Signing in with the right password sends a new link (resendConfirmationOnSignIn, below).
      autoSignInAfterVerification: true,
      expiresIn: CONFIRMATION_LINK_VALID_S,
      async sendVerificationEmail({ user: u, url }) {
        try {
          await sendConfirmation(u, url);
        } catch (err) {
          logger.error(`could not send the confirmation e-mail to ${u.email}`, err);
        }
      },
    },
    // A person deletes their own account (POST /api/auth/delete-user) with their password (app.ts
    // refuses it without one); no e-mail step. Their data goes first, then the user row.
    user: {
      deleteUser: {
        enabled: true,
        beforeDelete: async (u) => {
          await deps.beforeDeleteUser?.({ id: u.id, email: u.email, name: u.name });
        },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    // Our own limiter (counters in the database) covers sign-up and sign-in.
    rateLimit: { enabled: false },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await signUpChecks(db, ctx);
        updateUserChecks(ctx);
      }),
      after: resendConfirmationOnSignIn({
        db,
        clock: deps.clock ?? systemClock,
        logger,
        perHour: deps.verificationEmailPerHour ?? DEFAULT_CONFIRMATION_MAILS_PER_HOUR,
        send: sendConfirmation,
      }),
    },
    // An unexpected failure inside the library is thrown to the app's onError (logged once with
    // its cause, answered with the generic message) instead of an empty 500 and a console print.
    onAPIError: { throw: true },
    // The library's own log lines go to the app's log, without the query parameters its database
    // errors carry (a session token among them): the error's name, message head and cause.
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        const extra = args.map(describeLogged).filter(Boolean).join('; ');
        const line = `auth: ${message}${extra ? ` (${extra})` : ''}`;
        if (level === 'error') logger.error(line);
        else if (level === 'warn') logger.warn(line);
        else logger.info(line);
      },
    },
    advanced: {
      useSecureCookies: deps.secureCookies,
      // better-auth skips the Origin (CSRF) check when NODE_ENV=test; the tests must exercise it too.
      disableOriginCheck: false,
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (data) => {
            const email = String(data.email ?? '').trim().toLowerCase();
            // The spec: the display name is optional and defaults to the e-mail's part before the @.
            const name =
              savedDisplayName(typeof data.name === 'string' ? data.name : '') ||
              savedDisplayName(email.split('@')[0] ?? '') ||
              headOf(email, limits.displayNameMax);
            // No mail server: the account is confirmed as it is made (what the start-up line
            // promises), so adding SMTP_URL later does not lock it out as "not verified".
            const confirmed = mailer.delivers ? {} : { emailVerified: true };
            return { data: { ...data, email, name, ...confirmed } };
          },
          // Only a confirmed address is proof enough to be made admin by ADMIN_EMAILS.
          after: async (created) => {
            if (created.emailVerified) await grantRoleIfListed(db, created.id, created.email, deps.adminEmails);
          },
        },
        update: {
          // A new name (POST /api/auth/update-user; updateUserChecks has refused a blank one with
          // its message) is saved by the same rule as at sign-up. An update without one (the
          // confirmation link, an image) passes as it is.
          before: async (data) => {
            if (data.name === undefined) return;
            const name = typeof data.name === 'string' ? savedDisplayName(data.name) : '';
            if (!name) throw new APIError('BAD_REQUEST', { code: 'DISPLAY_NAME_BLANK', message: messages.auth.displayNameBlank });
            return { data: { ...data, name } };
          },
          // The confirmation link was opened.
          after: async (updated) => {
            if (updated.emailVerified) await grantRoleIfListed(db, updated.id, updated.email, deps.adminEmails);
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * A display name as it is saved, at sign-up and on update: bidi overrides and isolates removed (a
 * name cannot show reversed), trimmed, and at most limits.displayNameMax UTF-16 units, cut where a
 * reader sees a character end (never half an emoji, which would be saved as U+FFFD). '' when
 * nothing in it shows (spaces, zero-width or direction characters, a lone accent: see isBlank).
 * The sign-up form's field stops at the same limit (maxLength); a longer name from elsewhere (an
 * API client, a long e-mail as the default) is cut, not refused, as the form would have.
 */
export function savedDisplayName(raw: string): string {
  const name = headOf(cleanName(raw), limits.displayNameMax).trimEnd();
  return isBlank(name) ? '' : name;
}

/**
 * POST /api/auth/update-user: better-auth takes any JSON value as the name. A name that is not
 * text, or shows nothing, is refused with a message (400) instead of being saved.
 */
function updateUserChecks(ctx: { path: string; body?: unknown }) {
  if (ctx.path !== '/update-user') return;
  const body = ctx.body;
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('name' in body)) return;
  const name = (body as { name?: unknown }).name;
  if (name === undefined) return;
  if (typeof name !== 'string') throw new APIError('BAD_REQUEST', { code: 'DISPLAY_NAME_NOT_TEXT', message: messages.auth.displayNameNotText });
  if (!savedDisplayName(name)) throw new APIError('BAD_REQUEST', { code: 'DISPLAY_NAME_BLANK', message: messages.auth.displayNameBlank });
}

/**
 * Sign-up answers a person can act on (the auth screen shows the server's message). better-auth
 * would say "Password too short", and with autoSignIn off it answers a duplicate sign-up with a
 * silent fake success; the spec wants the duplicate reported (sharing by e-mail reveals whether
 * an account exists anyway, so hiding it here protects nothing).
 */
async function signUpChecks(db: Database, ctx: { path: string; body?: unknown }) {
  if (ctx.path !== '/sign-up/email') return;
  const body = (ctx.body ?? {}) as { email?: unknown; password?: unknown };
  if (typeof body.password === 'string' && body.password.length < limits.passwordMin) {
    throw new APIError('BAD_REQUEST', { code: 'PASSWORD_TOO_SHORT', message: messages.auth.passwordTooShort });
  }
  if (typeof body.email === 'string' && (await findUserIdByEmail(db, body.email))) {
    throw new APIError('UNPROCESSABLE_ENTITY', { code: 'USER_ALREADY_EXISTS', message: messages.auth.alreadyRegistered });
  }
}

/** An error as a log line: names, first message lines and SQL codes, never a query's parameters. */
function describeLogged(value: unknown): string {
  if (!(value instanceof Error)) return typeof value === 'string' ? value.split('\n')[0]!.slice(0, 200) : '';
  const parts: string[] = [];
  let e: unknown = value;
  for (let depth = 0; e instanceof Error && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    parts.push(`${e.name}: ${e.message.split('\n')[0]!.slice(0, 200)}${typeof code === 'string' ? ` [${code}]` : ''}`);
    e = e.cause;
  }
  return parts.join(' <- ');
}
