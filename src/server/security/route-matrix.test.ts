// The authorization matrix over EVERY /api route the app registers, found from the app itself
// (not from a list someone must remember to extend): routes added later, voice and moderation
// included, are walked the day they are mounted. The per-module matrices check exact answers for
// each role; this one checks the rule no route may break:
//  - anonymous and a signed-in stranger, aimed at another person's private personality (and its
//    document, conversation and share), get a refusal (400 for a body refused before the target is
//    looked at, 401, 403, 404), never a success, never a 500, and no answer carries private data;
//  - every /api/admin route refuses anonymous (401) and a non-admin (403);
//  - after the sweep, nothing the owner has was changed.
// A route that is open on purpose is listed in OPEN with the reason.
import { sql } from 'drizzle-orm';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../test-support/test-server';
import { uploadOne, waitForDocument } from '../modules/documents/documents.test-support';

const SECRET = `Zebulon-${crypto.randomUUID().slice(0, 8)}`;
const ADMIN = 'matrix-admin@example.com';

/**
 * Routes anyone may call: `${METHOD} ${path}` -> why. Their answers must still not carry the
 * owner's private data (checked below like every other route).
 */
const OPEN: Record<string, string> = {
  'GET /api/me': 'says who is signed in (nobody, for anonymous)',
  'GET /api/personalities': 'the library: public ones for anonymous, own + public + shared when signed in',
  'POST /api/personalities': 'a stranger creates their own (anonymous gets 401)',
  'POST /api/feedback': 'anyone may give feedback (rate-limited)',
  'GET /api/voice/capabilities': 'which speech engines are configured: no user data',
};

let server: TestServer;
let owner: TestClient & { id: string; email: string };
let recipient: TestClient & { id: string; email: string };
let stranger: TestClient;
let anonymous: TestClient;
let personalityId: string;
let documentId: string;
let conversationId: string;
let shareId: string;

beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_EMAILS: ADMIN, JOB_POLL_MS: '50' } });
  owner = await server.user();
  recipient = await server.user();
  stranger = await server.user();
  await server.user(ADMIN);
  anonymous = server.client();
  const created = await owner.post('/api/personalities', { name: SECRET, description: `${SECRET} description` });
  expect(created.status).toBe(201);
  personalityId = created.body.personality?.id ?? created.body.id;
  documentId = await uploadOne(owner, personalityId, { name: `${SECRET}.txt`, data: `${SECRET} knows the engine. `.repeat(20) });
  await waitForDocument(owner, personalityId, documentId);
  const chat = await owner.post(`/api/personalities/${personalityId}/chat`, { message: `${SECRET} question?` });
  expect(chat.status).toBe(200);
  const conversations = await owner.get(`/api/personalities/${personalityId}/conversations`);
  conversationId = (conversations.body.conversations ?? conversations.body)[0].id;
  // A share with someone else, so the share routes have a real target (the personality stays
  // invisible to the stranger).
  const share = await owner.post(`/api/personalities/${personalityId}/shares`, { email: recipient.email });
  expect(share.status).toBe(201);
  shareId = share.body.share?.id ?? share.body.id;
}, 180_000);
afterAll(() => server?.close());

/** Every API route the app answers, with its parameters filled with the owner's things. */
function apiRoutes(): { key: string; method: string; path: string; url: string }[] {
  const seen = new Set<string>();
  const out: { key: string; method: string; path: string; url: string }[] = [];
  for (const { method, path } of server.routes) {
    if (method === 'ALL' || !path.startsWith('/api/') || path.includes('*')) continue; // middleware, catch-alls
    if (path.startsWith('/api/auth/')) continue; // the auth library: sessions, its own checks (security.test.ts)
    if (path === '/api/health' || path === '/api/openapi.json') continue;
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ key, method, path, url: fill(path) });
  }
  return out;
}

function fill(path: string): string {
  return path
    .split('/')
    .map((part, i, parts) => {
      if (!part.startsWith(':')) return part;
      const name = part.slice(1).replace(/\{.*\}$/, '').replace(/\?$/, '');
      const parent = parts[i - 1];
      if (name === 'documentId') return documentId;
      if (name === 'shareId') return shareId;
      if (name === 'id' && parent === 'personalities' && parts[2] === 'personalities') return personalityId;
      if (name === 'id' && parent === 'conversations') return conversationId;
      return crypto.randomUUID(); // admin-only ids and anything new: the role check comes first
    })
    .join('/');
}

async function call(client: TestClient, method: string, url: string): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 15_000);
  try {
    const init: RequestInit = { method, signal: controller.signal };
    if (method !== 'GET' && method !== 'HEAD') {
      init.headers = { 'content-type': 'application/json' };
      init.body = JSON.stringify({ name: 'Changed', message: 'hi', text: 'hi', email: 'x@example.com', isPrivate: false });
    }
    const res = await client.raw(url, init);
    // A stream that opened would never end on its own: its first bytes are enough to judge it.
    const reader = res.body?.getReader();
    let text = '';
    if (reader) {
      const decoder = new TextDecoder();
      while (text.length < 64 * 1024) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (res.status < 300 && /event-stream|ndjson|audio/.test(res.headers.get('content-type') ?? '')) break;
      }
      await reader.cancel().catch(() => {});
    }
    return { status: res.status, text };
  } finally {
    clearTimeout(timer);
  }
}

describe('authorization matrix over every registered route', () => {
  it('finds the routes from the app itself', () => {
    const keys = apiRoutes().map((r) => r.key);
    // A few from each module, so a change in how routes are found cannot empty the sweep.
    for (const known of [
      'GET /api/personalities/:id/documents/events',
      'DELETE /api/personalities/:id/questions',
      'POST /api/personalities/:id/chat',
      'POST /api/admin/content-flags/:id/review',
      'DELETE /api/personalities/:id/shares/:shareId',
      'GET /api/conversations/:id',
    ]) {
      expect(keys).toContain(known);
    }
    expect(keys.length).toBeGreaterThan(35);
  });

  it('anonymous and a stranger get no success, no 500 and none of the private data from any route', async () => {
    const failures: string[] = [];
    for (const route of apiRoutes()) {
      for (const [who, client] of [['anonymous', anonymous], ['stranger', stranger]] as const) {
        const { status, text } = await call(client, route.method, route.url);
        const where = `${who} ${route.key} -> ${status}`;
        if (status >= 500) failures.push(`${where} (server error)`);
        if (text.includes(SECRET) || text.includes(documentId) || text.includes(conversationId) || text.includes(shareId)) {
          failures.push(`${where} (private data in the answer)`);
        }
        const open = route.key in OPEN && !(who === 'anonymous' && route.key === 'POST /api/personalities');
        // 400: the body was refused before the target was looked at (the same answer whoever owns
        // what), so it says nothing; the point is that no route does anything for them.
        if (!open && ![400, 401, 403, 404].includes(status)) failures.push(`${where} (expected a refusal)`);
        if (who === 'anonymous' && !open && route.path.startsWith('/api/admin/') && status !== 401) failures.push(`${where} (admin route: 401)`);
        if (who === 'stranger' && route.path.startsWith('/api/admin/') && status !== 403) failures.push(`${where} (admin route: 403)`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('changed nothing the owner has', async () => {
    const db = server.database.db;
    const rows = (q: ReturnType<typeof sql>) => db.execute(q).then((r) => (r as unknown as { rows: Record<string, unknown>[] }).rows);
    expect(await rows(sql`select name, sharing_type from personalities where id = ${personalityId}`)).toEqual([{ name: SECRET, sharing_type: 'shared' }]);
    expect(await rows(sql`select is_private from personality_documents where id = ${documentId}`)).toHaveLength(1);
    expect(await rows(sql`select id from conversations where id = ${conversationId}`)).toHaveLength(1);
    expect(await rows(sql`select id from personality_shares where id = ${shareId}`)).toHaveLength(1);
    expect(Number((await rows(sql`select count(*)::int as n from personalities where name = 'Changed'`))[0]!.n)).toBe(0);
    // The owner still sees everything as before.
    const docs = await owner.get(`/api/personalities/${personalityId}/documents`);
    expect(JSON.stringify(docs.body)).toContain(documentId);
  });
});
