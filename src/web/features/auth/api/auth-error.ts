import { messages } from '../../../../shared/messages';

/**
 * The message to show for a failed auth call: better-auth answers `{ message, code }`, our own
 * middleware (rate limits, body size) answers `{ error: { code, message } }`. Anything else gets
 * the spec's fallback.
 */
export function authErrorMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; error?: { message?: unknown } };
    if (typeof e.message === 'string' && e.message.trim()) return e.message;
    if (typeof e.error?.message === 'string' && e.error.message.trim()) return e.error.message;
  }
  return messages.generic;
}

/** The machine-readable code of a failed auth call (better-auth's `code`, or ours under `error`). */
function authErrorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { code?: unknown; error?: { code?: unknown } };
  if (typeof e.code === 'string') return e.code;
  return typeof e.error?.code === 'string' ? e.error.code : undefined;
}

/** Thrown by the auth mutations so React Query sees a failure carrying the message to show. */
export class AuthError extends Error {
  /** E.g. EMAIL_NOT_VERIFIED, INVALID_EMAIL_OR_PASSWORD, RATE_LIMITED. */
  readonly code: string | undefined;
  constructor(source: unknown) {
    super(authErrorMessage(source));
    this.name = 'AuthError';
    this.code = authErrorCode(source);
  }
}
