// Services throw AppError(code); app.onError maps the code to an HTTP status and a user-facing
// message, logs the cause and never sends internals to the client.
import { messages } from '../../shared/messages';

export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  INSUFFICIENT_STORAGE: 507,
  // Voice (modules/voice): the client maps each to the spec's message or to a fallback.
  AUDIO_TOO_LARGE: 413,
  BAD_AUDIO: 400,
  NO_SPEECH: 422,
  VOICE_RATE_LIMITED: 429,
  VOICE_QUOTA: 402,
  VOICE_CREDITS_EXHAUSTED: 429,
  STT_ERROR: 502,
  STT_UNAVAILABLE: 503,
  TTS_FALLBACK: 502,
  TTS_ERROR: 502,
  TTS_BROWSER: 503,
  CLONE_UNAVAILABLE: 503,
  CLONE_SUBSCRIPTION: 402,
  CLONE_FAILED: 502,
  AGENT_ID_REQUIRED: 400,
  AGENT_UNAVAILABLE: 503,
  AGENT_FAILED: 502,
} as const;

export type ErrorCode = keyof typeof errorStatus;

const defaultMessage: Record<ErrorCode, string> = {
  BAD_REQUEST: messages.errors.invalidInput,
  UNAUTHENTICATED: messages.auth.required,
  FORBIDDEN: 'You do not have permission to do that',
  NOT_FOUND: messages.errors.notFound,
  CONFLICT: 'That conflicts with existing data',
  PAYLOAD_TOO_LARGE: messages.errors.tooLarge,
  RATE_LIMITED: messages.errors.rateLimited,
  INTERNAL: messages.generic,
  INSUFFICIENT_STORAGE: messages.documents.serverDiskFull('the file'),
  AUDIO_TOO_LARGE: messages.voice.audioTooLarge('10+'),
  BAD_AUDIO: messages.voice.notWav,
  NO_SPEECH: messages.voice.noSpeech,
  VOICE_RATE_LIMITED: messages.voice.rateLimited,
  VOICE_QUOTA: messages.voice.quotaExceeded,
  VOICE_CREDITS_EXHAUSTED: messages.voice.creditsExhausted,
  STT_ERROR: messages.voice.sttError('the service failed'),
  STT_UNAVAILABLE: messages.voice.sttUnavailable,
  TTS_FALLBACK: messages.voice.ttsFallback,
  TTS_ERROR: messages.voice.ttsError,
  TTS_BROWSER: messages.voice.ttsBrowser,
  CLONE_UNAVAILABLE: messages.voice.cloneNotConfigured,
  CLONE_SUBSCRIPTION: messages.voice.cloneSubscription,
  CLONE_FAILED: messages.voice.cloneFailed,
  AGENT_ID_REQUIRED: messages.openMic.agentIdRequired,
  AGENT_UNAVAILABLE: messages.openMic.agentsNotConfigured,
  AGENT_FAILED: messages.openMic.noSignedUrl,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra machine-readable detail safe for the client (e.g. `retryAfter`). */
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message?: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message ?? defaultMessage[code], { cause: options?.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
    this.details = options?.details;
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

export function errorBody(code: ErrorCode, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: details ? { code, message, details } : { code, message } };
}

/** Postgres unique-violation, whether it comes from pg or PGlite (possibly wrapped by drizzle). */
export function isUniqueViolation(err: unknown): boolean {
  return pgCode(err) === '23505';
}

/**
 * Text PostgreSQL cannot store (a NUL character, 22021; or untranslatable, 22P05). It comes from the
 * client, so it is a bad request, not a server failure.
 */
export function isUnstorableText(err: unknown): boolean {
  const code = pgCode(err);
  return code === '22021' || code === '22P05';
}

/** PostgreSQL aborted this transaction to break a deadlock (40P01): safe to run it again whole. */
export function isDeadlock(err: unknown): boolean {
  return pgCode(err) === '40P01';
}

export function isForeignKeyViolation(err: unknown): boolean {
  return pgCode(err) === '23503';
}

function pgCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
