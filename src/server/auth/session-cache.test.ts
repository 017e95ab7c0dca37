// The session cache (session-cache.ts) never lets an ended session keep working: each test first
// warms the cache with the cookie, then ends or changes the session, then replays the old cookie.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server';
import { createSessionCache, sessionTokenFrom, SESSION_CACHE_TTL_MS } from './session-cache';
import { ALL_KEYS, invalidationBus } from '../lib/invalidation-bus';
import { withHeldCatchUp } from '../test-support/held-catch-up-bus';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function replay(cookies: Map<string, string>) {
  const c = server.client();
  for (const [k, v] of cookies) c.cookies.set(k, v);
  return c;
}

describe('session cache over HTTP', () => {
  it('refuses the old cookie at once after sign-out, though it was just used', async () => {
    const account = await server.user();
    const old = new Map(account.cookies);
    expect((await account.get('/api/me')).body.user.id).toBe(account.id);
    expect((await replay(old).get('/api/me')).body.user.id).toBe(account.id);
    expect((await account.post('/api/auth/sign-out', {})).status).toBe(200);
    expect((await replay(old).get('/api/me')).body).toEqual({ user: null, isAdmin: false });
    expect((await replay(old).post('/api/personalities', { name: 'After sign-out' })).status).toBe(401);
  });

  it('refuses the other sessions at once after a password change', async () => {
    const account = await server.user(undefined, 'secret-pass');
    const other = server.client();
    expect((await other.signIn(account.email, 'secret-pass')).status).toBe(200);
    expect((await other.get('/api/me')).body.user.id).toBe(account.id);
    const changed = await account.post('/api/auth/change-password', { currentPassword: 'secret-pass', newPassword: 'new-secret-pass' });
    expect(changed.status).toBe(200);
    expect((await other.get('/api/me')).body.user).toBeNull();
  });

  it('shows a new display name on the next request', async () => {
    const account = await server.user();
    expect((await account.get('/api/me')).body.user.displayName).not.toBe('Renamed');
    expect((await account.post('/api/auth/update-user', { name: 'Renamed' })).status).toBe(200);
    expect((await account.get('/api/me')).body.user.displayName).toBe('Renamed');
  });
});

describe('session cache', () => {
  const viewer = { id: 'u1', email: 'u1@example.com', name: 'U1' };

  it('drops a user\'s entries when the bus announces a change (as another process would)', async () => {
    const cache = createSessionCache(() => 0);
    cache.begin().store('tok-a', viewer, Infinity);
    cache.begin().store('tok-b', viewer, Infinity);
    cache.begin().store('tok-c', { ...viewer, id: 'u2' }, Infinity);
    invalidationBus().publish('session', 'u1');
    expect(await cache.get('tok-a')).toBeNull();
    expect(await cache.get('tok-b')).toBeNull();
    expect((await cache.get('tok-c'))?.id).toBe('u2');
    cache.close();
  });

  it('forgets everyone when notices may have been missed (the bus reconnected)', async () => {
    const cache = createSessionCache(() => 0);
    cache.begin().store('tok-a', viewer, Infinity);
    cache.begin().store('tok-c', { ...viewer, id: 'u2' }, Infinity);
    invalidationBus().publish('session', ALL_KEYS);
    expect(await cache.get('tok-a')).toBeNull();
    expect(await cache.get('tok-c')).toBeNull();
    cache.close();
  });

  it('does not keep a lookup that started before an invalidation', async () => {
    const cache = createSessionCache(() => 0);
    const pending = cache.begin();
    invalidationBus().publish('session', 'u1');
    pending.store('tok-a', viewer, Infinity);
    expect(await cache.get('tok-a')).toBeNull();
    cache.close();
  });

  it('answers from memory only once the bus has caught up, and a sign-out heard meanwhile wins', async () => {
    await withHeldCatchUp(async (bus, answer) => {
      const cache = createSessionCache(() => 0);
      cache.begin().store('tok-a', viewer, Infinity);
      let settled = false;
      const kept = cache.get('tok-a').finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 10));
      expect(settled).toBe(false);
      answer(true);
      expect((await kept)?.id).toBe('u1');

      // Another process's sign-out reaches this one while it is catching up.
      const ended = cache.get('tok-a');
      void bus.publish('session', 'u1');
      answer(true);
      expect(await ended).toBeNull();
      cache.close();
    });
  });

  it('does not answer from memory when the bus cannot tell whether it has caught up', async () => {
    await withHeldCatchUp(async (_bus, answer) => {
      const cache = createSessionCache(() => 0);
      cache.begin().store('tok-a', viewer, Infinity);
      const unsure = cache.get('tok-a');
      await new Promise((r) => setTimeout(r, 0));
      answer(false);
      expect(await unsure).toBeNull();
      cache.close();
    });
  });

  it('forgets an entry after the TTL or when the session expires, whichever is first', async () => {
    let t = 0;
    const cache = createSessionCache(() => t);
    cache.begin().store('tok-a', viewer, Infinity);
    cache.begin().store('tok-b', viewer, 1000);
    t = 999;
    expect(await cache.get('tok-a')).not.toBeNull();
    expect(await cache.get('tok-b')).not.toBeNull();
    t = 1000;
    expect(await cache.get('tok-b')).toBeNull();
    t = SESSION_CACHE_TTL_MS;
    expect(await cache.get('tok-a')).toBeNull();
    cache.close();
  });

  it('keys only on a single session cookie', () => {
    expect(sessionTokenFrom('a=1; better-auth.session_token=abc.sig; b=2')).toBe('abc.sig');
    expect(sessionTokenFrom('__Secure-better-auth.session_token=xyz')).toBe('xyz');
    expect(sessionTokenFrom('better-auth.session_token=a; __Secure-better-auth.session_token=b')).toBeNull();
    expect(sessionTokenFrom('other=1')).toBeNull();
    expect(sessionTokenFrom(null)).toBeNull();
  });
});
