// The context cache of spec section 9: 10-minute expiry, at most 10 entries (least recently used
// goes), an edit invalidates, preload of the first public personalities, and measured figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { createContextCache, summarize, type PersonaContext } from './context-cache';
import { chat, createPersonality, makePublic } from './conversations.test-support';

const ctx = (id: string, updatedAt: Date): PersonaContext => ({
  personalityId: id,
  updatedAtMs: updatedAt.getTime(),
  name: id,
  personaPrompt: `You are ${id}`,
  greeting: 'hi',
  starters: [],
});

describe('context cache', () => {
  it('expires entries after 10 minutes and rebuilds when the personality was edited', async () => {
    let now = 0;
    const cache = createContextCache({ clock: { now: () => new Date(now) } });
    const t0 = new Date(1000);
    let builds = 0;
    const build = async () => (builds++, ctx('a', t0));
    expect((await cache.get({ id: 'a', updatedAt: t0 }, build)).hit).toBe(false);
    now = 10 * 60 * 1000 - 1;
    expect((await cache.get({ id: 'a', updatedAt: t0 }, build)).hit).toBe(true);
    now += 10 * 60 * 1000; // the hit above did not extend the entry's life
    expect((await cache.get({ id: 'a', updatedAt: t0 }, build)).hit).toBe(false);
    const edited = new Date(2000);
    expect((await cache.get({ id: 'a', updatedAt: edited }, async () => (builds++, ctx('a', edited)))).hit).toBe(false);
    expect(builds).toBe(3);
    expect(cache.stats().contextCache).toMatchObject({ hits: 1, misses: 3, hitRate: 0.25, maxEntries: 10, ttlSeconds: 600 });
  });

  it('does not keep a build that was under way when the entry was forgotten (a document changed meanwhile)', async () => {
    const cache = createContextCache({ clock: { now: () => new Date(0) } });
    const t0 = new Date(1000);
    let finish!: (c: PersonaContext) => void;
    const slow = cache.get({ id: 'a', updatedAt: t0 }, () => new Promise<PersonaContext>((r) => (finish = r)));
    cache.forget('a');
    finish({ ...ctx('a', t0), starters: ['read before the change'] });
    // This request is answered with what it built; the next one builds again.
    expect((await slow).context.starters).toEqual(['read before the change']);
    expect(cache.has('a')).toBe(false);
    const next = await cache.get({ id: 'a', updatedAt: t0 }, async () => ctx('a', t0));
    expect(next).toMatchObject({ hit: false, context: { starters: [] } });
    expect((await cache.get({ id: 'a', updatedAt: t0 }, async () => ctx('a', t0))).hit).toBe(true);
  });

  it('keeps at most 10 entries, evicting the least recently used', async () => {
    const cache = createContextCache({ clock: { now: () => new Date(0) } });
    const t = new Date(0);
    for (let i = 0; i < 10; i++) await cache.get({ id: `p${i}`, updatedAt: t }, async () => ctx(`p${i}`, t));
    await cache.get({ id: 'p0', updatedAt: t }, async () => ctx('p0', t)); // p0 is now the most recent
    await cache.get({ id: 'p10', updatedAt: t }, async () => ctx('p10', t));
    expect(cache.stats().contextCache.entries).toBe(10);
    expect(cache.has('p0')).toBe(true);
    expect(cache.has('p1')).toBe(false);
  });

  it('preloads at most 5 without counting them as hits or misses', async () => {
    const cache = createContextCache({ clock: { now: () => new Date(0) } });
    const keys = Array.from({ length: 7 }, (_, i) => ({ id: `p${i}`, updatedAt: new Date(0) }));
    expect(await cache.preload(keys, async (k) => ctx(k.id, k.updatedAt))).toBe(5);
    expect(cache.stats().contextCache).toMatchObject({ entries: 5, preloaded: 5, hits: 0, misses: 0, hitRate: null });
    expect((await cache.get(keys[4]!, async () => ctx('x', new Date(0)))).hit).toBe(true);
    expect(cache.has('p5')).toBe(false);
  });

  it('summarizes time to first token as p50/p95/mean', () => {
    expect(summarize([])).toEqual({ count: 0, p50Ms: null, p95Ms: null, meanMs: null });
    const s = summarize(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(s).toEqual({ count: 100, p50Ms: 50, p95Ms: 95, meanMs: 50.5 });
  });
});

describe('context cache in the running server', () => {
  let server: TestServer;
  let first: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIN_EMAILS: 'cache-admin@example.com' } });
  });
  afterAll(async () => {
    await server?.close();
    await first?.close();
  });

  it('measures hits, misses and time to first token for admins', async () => {
    const admin = await server.user('cache-admin@example.com');
    const id = await createPersonality(admin, 'Ada');
    await chat(admin, id, { message: 'one' });
    await chat(admin, id, { message: 'two' });
    await chat(admin, id, { message: 'three' });
    const res = await admin.get('/api/admin/system-optimizations');
    expect(res.status).toBe(200);
    expect(res.body.contextCache).toMatchObject({ hits: 2, misses: 1, hitRate: 0.667, maxEntries: 10, ttlSeconds: 600 });
    expect(res.body.timeToFirstToken.withCache.count).toBe(2);
    expect(res.body.timeToFirstToken.withoutCache.count).toBe(1);
    expect(res.body.timeToFirstToken.withCache.p50Ms).toEqual(expect.any(Number));
    expect(res.body.responder).toEqual({ mode: 'offline', label: 'Offline responder' });
    expect(res.body.retrieval).toEqual({ mode: 'full-text' });
  });

  it('preloads the first 5 public personalities at start-up', async () => {
    const dir = (await import('node:fs')).mkdtempSync((await import('node:path')).join((await import('node:os')).tmpdir(), 'kindred-cache-'));
    if (process.env.TEST_DATABASE_URL) return; // a data folder is a PGlite feature
    first = await startTestServer({ dataDir: dir, env: { ADMIN_EMAILS: 'preload-admin@example.com' } });
    const owner = await first.user('preload-admin@example.com', 'secret-pass');
    for (let i = 0; i < 7; i++) await makePublic(first.database.db, await createPersonality(owner, `Public ${i}`));
    await first.close();
    first = await startTestServer({ dataDir: dir, env: { ADMIN_EMAILS: 'preload-admin@example.com' } });
    const admin = first.client();
    await admin.signIn('preload-admin@example.com', 'secret-pass');
    const stats = await admin.get('/api/admin/system-optimizations');
    expect(stats.body.contextCache).toMatchObject({ entries: 5, preloaded: 5 });
    expect(first.logs.some((l) => l.includes('5 personality context(s) preloaded'))).toBe(true);
    // The library's first public personality is served from the cache on its first chat.
    const library = await admin.get('/api/personalities');
    await chat(admin, library.body.personalities[0].id, { message: 'hello' });
    expect((await admin.get('/api/admin/system-optimizations')).body.contextCache).toMatchObject({ hits: 1, misses: 0 });
  });
});
