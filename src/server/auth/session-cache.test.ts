// The session cache (session-cache.ts) never lets an ended session keep working: each test first
// warms the cache with the cookie, then ends or changes the session, then replays the old cookie.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server';
import { createSessionCache, sessionTokenFrom, SESSION_CACHE_TTL_MS } from './session-cache';
import { ALL_KEYS, invalidationBus } from '../lib/invalidation-bus';

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

  it('drops a user\'s entries when the bus announces a change (as another process would)', () => {
    const cache = createSessionCache(() => 0);
    cache.begin().store('tok-a', viewer, Infinity);
    cache.begin().store('tok-b', viewer, Infinity);
    cache.begin().store('tok-c', { ...viewer, id: 'u2' }, Infinity);
    invalidationBus().publish('session', 'u1');
    expect(cache.get('tok-a')).toBeNull();
    expect(cache.get('tok-b')).toBeNull();
    expect(cache.get('tok-c')?.id).toBe('u2');
    cache.close();
  });

  it('forgets everyone when notices may have been missed (the bus reconnected)', () => {
    const cache = createSessionCache(() => 0);
    cache.begin().store('tok-a', viewer, Infinity);
    cache.begin().store('tok-c', { ...viewer, id: 'u2' }, Infinity);
    invalidationBus().publish('session', ALL_KEYS);
    expect(cache.get('tok-a')).toBeNull();
    expect(cache.get('tok-c')).toBeNull();
    cache.close();
  });

  it('does not keep a lookup that started before an invalidation', () => {
    const cache = createSessionCache(() => 0);
    const pending = cache.begin();
    invalidationBus().publish('session', 'u1');
    pending.store('tok-a', viewer, Infinity);
    expect(cache.get('tok-a')).toBeNull();
    cache.close();
  });

  it('forgets an entry after the TTL or when the session expires, whichever is first', () => {
    let t = 0;
    const cache = createSessionCache(() => t);
    cache.begin().store('tok-a', viewer, Infinity);
    cache.begin().store('tok-b', viewer, 1000);
    t = 999;
    expect(cache.get('tok-a')).not.toBeNull();
    expect(cache.get('tok-b')).not.toBeNull();
    t = 1000;
    expect(cache.get('tok-b')).toBeNull();
    t = SESSION_CACHE_TTL_MS;
    expect(cache.get('tok-a')).toBeNull();
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
