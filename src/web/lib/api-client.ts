// The one typed client for our API (Hono's hc over the server's route types). Components never
// call fetch: each server call is a file under features/<x>/api that uses `api` and `unwrap`.
import { hc, type InferResponseType } from 'hono/client';
import type { AppType } from '../../server/app';
import { messages } from '../../shared/messages';
import { reportSessionEnded } from './auth-sync';
import { isPersonalityPath, reportPersonalityMissing } from './personality-missing';

/**
 * Whether a 401 from this path means the session ended. The auth routes answer 401 for a wrong
 * password and /api/me answers who is signed in: neither says a session this tab had is gone.
 */
export function endsSession(url: string): boolean {
  const path = new URL(url, 'http://localhost').pathname;
  return path.startsWith('/api/') && !path.startsWith('/api/auth/') && path !== '/api/me';
}

/**
 * fetch, reporting a 401 so the app can show the person they were signed out, and a 404 for a
 * personality so the library can drop one deleted or unshared elsewhere.
 */
async function fetchWatchingSession(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  // Looked up per call: component tests replace the global fetch after this module loads.
  const res = await globalThis.fetch(input, init);
  watchAnswer(res.status, input instanceof Request ? input.url : String(input));
  return res;
}

/**
 * What an answer tells the rest of the app: a 401 that the session ended, a 404 for a personality
 * that it is gone. For the calls that cannot go through `api` (uploads by XMLHttpRequest for their
 * progress, raw multipart posts).
 */
export function watchAnswer(status: number, url: string): void {
  if (status === 401 && endsSession(url)) reportSessionEnded();
  if (status === 404 && isPersonalityPath(url)) reportPersonalityMissing();
}

export const api = hc<AppType>('/', { init: { credentials: 'same-origin' }, fetch: fetchWatchingSession });

/** An error answered by the API, carrying its stable code and user-facing message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The server's machine-readable detail, when it sent any (e.g. a provider's reason). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Resolves to the JSON body of a 2xx answer, or throws ApiError with the server's message. */
export async function unwrap<R extends { ok: boolean; status: number; json(): Promise<unknown> }>(
  request: Promise<R> | R,
): Promise<InferResponseType<() => Promise<R>, 200 | 201 | 202>> {
  let res: R;
  try {
    res = await request;
  } catch {
    throw new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.');
  }
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (!res.ok) {
    throw new ApiError(res.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? messages.generic);
  }
  return body as never;
}

/** The message to show a person for any thrown value, with a fallback for the unexpected. */
export function errorMessage(err: unknown, fallback: string = messages.generic): string {
  if (err instanceof ApiError) return err.message;
  return fallback;
}
