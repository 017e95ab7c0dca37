// One place in the request path for text no route can store: a JSON body that is not UTF-8, or
// that holds a NUL character or a lone surrogate in any string (PostgreSQL text refuses both, and
// the refusal used to surface as a 500 from deep inside a query or the auth library). Answered 400
// before any route, the auth library's included, sees the body (read once; see readJsonBodyOnce).
// Form-encoded bodies get the same rule: the auth
// library accepts them for sign-up and sign-in (`email=a%00b` was a 500 with an empty body).
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { AppEnv } from '../auth/session';
import { AppError } from '../lib/errors';
import { messages } from '../../shared/messages';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Some string (or key) in the value holds text PostgreSQL cannot store. */
export function holdsUnstorableText(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof value === 'string') return value.includes('\u0000') || LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some((v) => holdsUnstorableText(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => holdsUnstorableText(k, depth + 1) || holdsUnstorableText(v, depth + 1));
  }
  return false;
}

export function jsonTextGuard() {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return createMiddleware<AppEnv>(async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    // Whether a body comes is read from the headers: looking at c.req.raw.body would build a web
    // Request around the socket, which the direct read below avoids (see readJsonBodyOnce).
    const body = c.req.method !== 'GET' && c.req.method !== 'HEAD' && declaredBody(c.req.header('content-length'), c.req.header('transfer-encoding')) !== 0;
    if (body && isFormEncoded(type)) {
      let text: string;
      try {
        text = decoder.decode(await c.req.raw.clone().arrayBuffer());
      } catch {
        throw new AppError('BAD_REQUEST', messages.errors.unstorableText);
      }
      const fields = [...new URLSearchParams(text)].flat();
      if (holdsUnstorableText(fields)) throw new AppError('BAD_REQUEST', messages.errors.unstorableText);
    }
    if (body && /\bjson\b/i.test(type)) {
      let text: string;
      try {
        text = await readJsonBodyOnce(c, decoder);
      } catch {
        throw new AppError('BAD_REQUEST', messages.errors.unstorableText);
      }
      if (text.length > 0) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new AppError('BAD_REQUEST', messages.errors.badJson);
        }
        if (holdsUnstorableText(parsed)) throw new AppError('BAD_REQUEST', messages.errors.unstorableText);
      }
    }
    await next();
  });
}

/**
 * The body as text (`decoder` throws on bytes that are not UTF-8). The auth library reads the
 * original request, so under /api/auth/ the body is read from a clone. Every other route reads its
 * JSON through Hono (c.req.json(), the validators), so the body is read once and handed to Hono's
 * body cache, bytes and text, and c.req.json() parses this text instead of reading the stream: a
 * clone (a tee of the stream) cost ~0.4 ms of a chat request's CPU, and rebuilding the request
 * around the bytes ~0.2 ms. The original stream is then used up; a route reading c.req.raw's body
 * would fail loudly, not silently (streamed uploads, which do, skip this guard).
 */
async function readJsonBodyOnce(c: Context<AppEnv>, decoder: TextDecoder): Promise<string> {
  if (c.req.path.startsWith('/api/auth/')) return decoder.decode(await c.req.raw.clone().arrayBuffer());
  const bytes = await c.req.raw.arrayBuffer();
  const text = decoder.decode(bytes);
  const cache = honoBodyCache(c);
  cache.arrayBuffer = Promise.resolve(bytes);
  cache.text = Promise.resolve(text);
  return text;
}

/**
 * A request's body as its headers declare it (HTTP/1.1): 'chunked' when it comes in chunks of no
 * declared length, else its length in bytes (0: none; a length Node's parser let through is a
 * plain number).
 */
export function declaredBody(contentLength: string | undefined, transferEncoding: string | undefined): number | 'chunked' {
  if (transferEncoding !== undefined) return 'chunked';
  return contentLength === undefined ? 0 : Number(contentLength) || 0;
}

/** Hono keeps the promise of each body form it has read (its type names the values instead). */
function honoBodyCache(c: Context<AppEnv>): Record<string, Promise<unknown>> {
  return c.req.bodyCache as unknown as Record<string, Promise<unknown>>;
}

function isFormEncoded(contentType: string): boolean {
  return /^\s*application\/x-www-form-urlencoded\b/i.test(contentType);
}

/**
 * One string field of a JSON or form-encoded body (the two the auth library accepts), read from a
 * clone so the route still reads the body; null when absent or unreadable.
 */
export async function bodyField(c: Context, name: string): Promise<string | null> {
  const type = c.req.header('content-type') ?? '';
  try {
    if (isFormEncoded(type)) return new URLSearchParams(await c.req.raw.clone().text()).get(name);
    const body = (await c.req.raw.clone().json()) as Record<string, unknown> | null;
    const value = body && typeof body === 'object' ? body[name] : undefined;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
