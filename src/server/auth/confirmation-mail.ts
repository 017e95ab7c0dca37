// The confirmation e-mail, and a new one sent when someone signs in with the right password to an
// account whose address is not confirmed yet. Without that, a link opened too late locked the
// person out for good: sign-in said only "Email not verified", sign-up said "already registered",
// and nothing could send another link.
import { APIError, createAuthMiddleware, createEmailVerificationToken, isAPIError } from 'better-auth/api';
import type { Database } from '../db/client';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { messages } from '../../shared/messages';
import { countHit } from '../modules/rate-limits/rate-limits.repository';

/**
 * How long a confirmation link works. 24 hours, not the library's 1 hour: mail arrives late or
 * in the spam folder, and people sign up in the evening and confirm the next morning. A link only
 * confirms its own address (and signs in on its first use), and a late one now costs no more
 * than a sign-in that sends a fresh link.
 */
export const CONFIRMATION_LINK_VALID_S = 24 * 60 * 60;

export function confirmationMail(name: string, url: string): { subject: string; text: string } {
  return {
    subject: 'Confirm your Kindred account',
    text:
      `Welcome to Kindred, ${name}!\n\nConfirm your e-mail address by opening this link:\n${url}\n\n` +
      `The link is valid for 24 hours. If it has expired, sign in with your e-mail and password and we will send you a new one.\n`,
  };
}

export interface ResendDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Confirmation mails one address may be sent per hour (RATE_LIMIT_VERIFICATION_EMAIL_PER_HOUR). */
  perHour: number;
  /** Sends the mail; throws when it could not be handed to the mail server. */
  send: (to: { email: string; name: string }, url: string) => Promise<void>;
}

/**
 * After-hook of sign-in: the library answers "Email not verified" (403) only once the password
 * was found right. Then a new link is sent, within the same hourly budget per address as
 * /api/auth/send-verification-email (the same counter: one budget, whichever path asks), and the
 * answer says what happened. (The library's emailVerification.sendOnSignIn would send on every
 * such sign-in, with no limit and no word of it in the answer.)
 */
export function resendConfirmationOnSignIn(deps: ResendDeps) {
  return createAuthMiddleware(async (ctx) => {
    if (ctx.path !== '/sign-in/email') return;
    const returned = ctx.context.returned;
    if (!isAPIError(returned) || returned.body?.code !== 'EMAIL_NOT_VERIFIED') return;
    const email = String((ctx.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase();
    const found = await ctx.context.internalAdapter.findUserByEmail(email);
    if (!found || found.user.emailVerified) return;
    const { user } = found;
    if (!(await withinHourlyBudget(deps, user.email))) throw notVerified(messages.auth.emailNotVerifiedLinkRecent(user.email));
    const token = await createEmailVerificationToken(ctx.context.secret, user.email, undefined, CONFIRMATION_LINK_VALID_S, { userId: user.id });
    const url = `${ctx.context.baseURL}/verify-email?token=${token}&callbackURL=${encodeURIComponent('/')}`;
    try {
      await deps.send(user, url);
    } catch (err) {
      deps.logger.error(`could not send the confirmation e-mail to ${user.email}`, err);
      throw notVerified(messages.auth.emailNotVerifiedSendFailed);
    }
    throw notVerified(messages.auth.emailNotVerifiedLinkSent(user.email));
  });
}

function notVerified(message: string): APIError {
  return new APIError('FORBIDDEN', { code: 'EMAIL_NOT_VERIFIED', message });
}

/** Counts one mail to `email` in the hourly window rateLimit (app.ts) keeps for the resend endpoint. */
async function withinHourlyBudget(deps: ResendDeps, email: string): Promise<boolean> {
  const windowMs = 3600 * 1000;
  const windowStart = new Date(Math.floor(deps.clock.now().getTime() / windowMs) * windowMs);
  const subject = `email:${email.slice(0, 320)}`;
  const count = await countHit(deps.db, { endpoint: 'auth/send-verification-email', subject, windowStart, userId: null, ipAddress: null });
  return count <= deps.perHour;
}
