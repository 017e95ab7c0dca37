// better-auth's browser client: sign-up, sign-in, sign-out and the session, all through the
// httpOnly session cookie (no tokens in localStorage).
import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient({
  basePath: '/api/auth',
  // better-auth captures `fetch` when the client is created; looking it up per call keeps the
  // client working with a fetch replaced later (component tests stub the global fetch).
  fetchOptions: { customFetchImpl: (input, init) => globalThis.fetch(input, init) },
});
