// Test support for the app shell: a stubbed global fetch that answers like our server does
// (GET /api/me, better-auth's /api/auth/* routes, POST /api/feedback, GET /api/personalities),
// recording every call. Shapes copied from the running server's answers.
import { vi } from 'vitest';

export type FakeUser = { id: string; email: string; displayName: string };

export const ada: FakeUser = { id: 'user-ada', email: 'ada@example.com', displayName: 'ada' };

export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
  /** The query string's parameters (e.g. ?before= on a delete). */
  query: URLSearchParams;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
}

export interface FakeApiOptions {
  user?: FakeUser | null;
  isAdmin?: boolean;
  /** Answer one call differently (return undefined to keep the default); may wait on a promise. */
  override?: (call: FakeCall) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;
}

export const jsonResponse = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });

function betterAuthUser(u: { id: string; email: string; name: string }) {
  const now = '2026-01-01T00:00:00.000Z';
  return { name: u.name, email: u.email, emailVerified: false, image: null, createdAt: now, updatedAt: now, id: u.id };
}

export function fakeApi(options: FakeApiOptions = {}) {
  const state = { user: options.user ?? null, isAdmin: options.isAdmin ?? false };
  const calls: FakeCall[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost:3000');
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const raw = init?.body;
    const body = typeof raw === 'string' && raw ? JSON.parse(raw) : undefined;
    const call: FakeCall = { method, path: url.pathname, body, query: url.searchParams };
    calls.push(call);

    const replaced = await options.override?.(call);
    if (replaced) return jsonResponse(replaced.status, replaced.body);

    switch (`${method} ${url.pathname}`) {
      case 'GET /api/me':
        return jsonResponse(200, { user: state.user, isAdmin: state.user ? state.isAdmin : false });
      case 'GET /api/personalities':
        return jsonResponse(200, { personalities: [] });
      case 'POST /api/feedback':
        return jsonResponse(201, { id: 'feedback-1' });
      case 'POST /api/auth/sign-up/email': {
        const b = body as { email: string; name: string };
        return jsonResponse(200, { token: null, user: betterAuthUser({ id: 'user-new', email: b.email, name: b.name }) });
      }
      case 'POST /api/auth/sign-in/email': {
        const b = body as { email: string };
        const user = { id: 'user-signed-in', email: b.email, displayName: b.email.split('@')[0]! };
        state.user = user;
        return jsonResponse(200, {
          redirect: false,
          token: 'session-token',
          user: betterAuthUser({ id: user.id, email: user.email, name: user.displayName }),
        });
      }
      case 'POST /api/auth/sign-out':
        state.user = null;
        return jsonResponse(200, { success: true });
      case 'GET /api/auth/get-session':
        return jsonResponse(200, null);
      default:
        return jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'No such API route' } });
    }
  });

  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    state,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}
