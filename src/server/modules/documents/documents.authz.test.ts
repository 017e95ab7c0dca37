// Authorization matrix over every documents route: anonymous, signed-in stranger, share recipient,
// admin and owner; private documents are never readable by anyone but the owner on any route.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, upload, uploadOne, waitForDocument } from './documents.test-support';

const ADMIN = 'doc-admin@example.com';
let server: TestServer;
let owner: TestClient & { id: string; email: string };
let recipient: TestClient & { id: string; email: string };
let stranger: TestClient;
let admin: TestClient;
let anonymous: TestClient;
let pid: string; // shared with the recipient
let publicPid: string;
let openDoc: string;
let privateDoc: string;
let publicOpenDoc: string;
let publicPrivateDoc: string;

beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_EMAILS: ADMIN, JOB_POLL_MS: '50', CHUNK_SIZE: '200', CHUNK_OVERLAP: '0' } });
  owner = await server.user();
  recipient = await server.user();
  stranger = await server.user();
  admin = await server.user(ADMIN);
  anonymous = server.client();
  pid = await createPersonality(owner, 'Shared one');
  const share = await owner.post(`/api/personalities/${pid}/shares`, { email: recipient.email });
  expect(share.status, JSON.stringify(share.body)).toBe(201);
  publicPid = await createPersonality(owner, 'Public one');
  await server.database.db.execute(sql`update personalities set sharing_type = 'public', is_public = true where id = ${publicPid}`);

  const long = (word: string) => Array.from({ length: 8 }, (_, i) => `${word} sentence ${i} about the engine and its cards.`).join(' ');
  openDoc = await uploadOne(owner, pid, { name: 'open.txt', data: long('Open') });
  privateDoc = await uploadOne(owner, pid, { name: 'secret.txt', data: long('Secret') }, { isPrivate: 'true' });
  publicOpenDoc = await uploadOne(owner, publicPid, { name: 'public-open.txt', data: long('Visible') });
  publicPrivateDoc = await uploadOne(owner, publicPid, { name: 'public-secret.txt', data: long('Hidden') }, { isPrivate: 'true' });
  for (const [p, d] of [[pid, openDoc], [pid, privateDoc], [publicPid, publicOpenDoc], [publicPid, publicPrivateDoc]] as const) {
    await waitForDocument(owner, p, d);
  }
});
afterAll(async () => {
  await server?.close();
});

type Who = 'anonymous' | 'stranger' | 'recipient' | 'admin' | 'owner';
const clients = (): Record<Who, TestClient> => ({ anonymous, stranger, recipient, admin, owner });

/** Every management route, as a request factory (fresh document ids where a route consumes one). */
function manageRoutes(p: string, d: string): [string, (c: TestClient) => Promise<{ status: number; body: any }>][] {
  return [
    ['list', (c) => c.get(`/api/personalities/${p}/documents`)],
    ['upload', (c) => upload(c, p, [{ name: 'x.txt', data: 'hello' }])],
    ['import url', (c) => c.post(`/api/personalities/${p}/documents/url`, { url: 'http://example.invalid/' })],
    ['process', (c) => c.post(`/api/personalities/${p}/documents/${d}/process`)],
    ['rechunk', (c) => c.post(`/api/personalities/${p}/documents/${d}/rechunk`)],
    ['privacy', (c) => c.patch(`/api/personalities/${p}/documents/${d}`, { isPrivate: false })],
    ['delete', (c) => c.delete(`/api/personalities/${p}/documents/${d}`)],
    ['chunks', (c) => c.get(`/api/personalities/${p}/documents/${d}/chunks`)],
    ['events', async (c) => {
      const res = await c.raw(`/api/personalities/${p}/documents/events`);
      const status = res.status;
      if (status !== 200) return { status, body: await res.json() };
      await res.body?.cancel();
      return { status, body: null };
    }],
  ];
}

describe('documents authorization', () => {
  it('refuses every management route to anyone but the owner (401 anonymous, 403 visible non-owner, 404 otherwise)', async () => {
    const expected: Record<Exclude<Who, 'owner'>, number> = { anonymous: 401, stranger: 404, recipient: 403, admin: 404 };
    for (const [who, client] of Object.entries(clients()) as [Who, TestClient][]) {
      if (who === 'owner') continue;
      for (const [name, call] of manageRoutes(pid, privateDoc)) {
        const res = await call(client);
        expect(res.status, `${who} ${name}`).toBe(expected[who]);
        // Nothing about the documents leaks in a refusal.
        expect(JSON.stringify(res.body ?? ''), `${who} ${name}`).not.toContain('Secret sentence');
      }
    }
    // On a public personality every signed-in non-owner sees it, so they get 403.
    for (const who of ['stranger', 'recipient', 'admin'] as const) {
      for (const [name, call] of manageRoutes(publicPid, publicPrivateDoc)) {
        expect((await call(clients()[who])).status, `${who} ${name} (public)`).toBe(403);
      }
    }
    // Nothing was changed by all those attempts.
    const list = await owner.get(`/api/personalities/${pid}/documents`);
    expect(list.body.documents.map((d: { fileName: string; isPrivate: boolean }) => [d.fileName, d.isPrivate])).toEqual([
      ['secret.txt', true],
      ['open.txt', false],
    ]);
  });

  it('lets the owner use every management route', async () => {
    const d = await uploadOne(owner, pid, { name: 'scratch.txt', data: 'Scratch text for the owner routes.' });
    await waitForDocument(owner, pid, d);
    const results = [];
    for (const [name, call] of manageRoutes(pid, d)) {
      const res = await call(owner);
      results.push([name, res.status]);
      if (name === 'process' || name === 'rechunk') await waitForDocument(owner, pid, d, ['ready', 'failed']);
    }
    expect(results).toEqual([
      ['list', 200],
      ['upload', 200],
      ['import url', 400], // reached the owner-only logic: the address is refused, not the caller
      ['process', 202],
      ['rechunk', 202],
      ['privacy', 200],
      ['delete', 200],
      ['chunks', 404], // deleted just before
      ['events', 200],
    ]);
  });

  it('shows the source view to whoever may see the personality, but private documents only to the owner', async () => {
    const view = (c: TestClient, p: string, d: string) => c.get(`/api/personalities/${p}/documents/${d}/source?chunk=1`);
    const matrix: [Who, string, string, number][] = [
      ['anonymous', pid, openDoc, 404],
      ['stranger', pid, openDoc, 404],
      ['admin', pid, openDoc, 404],
      ['recipient', pid, openDoc, 200],
      ['owner', pid, openDoc, 200],
      ['recipient', pid, privateDoc, 404],
      ['owner', pid, privateDoc, 200],
      ['anonymous', publicPid, publicOpenDoc, 200],
      ['stranger', publicPid, publicOpenDoc, 200],
      ['admin', publicPid, publicOpenDoc, 200],
      ['anonymous', publicPid, publicPrivateDoc, 404],
      ['stranger', publicPid, publicPrivateDoc, 404],
      ['admin', publicPid, publicPrivateDoc, 404],
      ['recipient', publicPid, publicPrivateDoc, 404],
      ['owner', publicPid, publicPrivateDoc, 200],
    ];
    for (const [who, p, d, status] of matrix) {
      const res = await view(clients()[who], p, d);
      expect(res.status, `${who} ${p === pid ? 'shared' : 'public'} ${d === privateDoc || d === publicPrivateDoc ? 'private' : 'open'}`).toBe(status);
      if (status === 404) {
        expect(res.body.error.message).toBe(d === privateDoc || d === publicPrivateDoc || p === publicPid ? messages.documents.chunkUnavailable : messages.personality.notFound);
        expect(JSON.stringify(res.body)).not.toMatch(/Secret|Hidden/);
      }
    }
  });

  it('counts only usable documents in the knowledge summary', async () => {
    const summary = async (c: TestClient, p: string) => c.get(`/api/personalities/${p}/knowledge`);
    const ownerView = await summary(owner, publicPid);
    const anonView = await summary(anonymous, publicPid);
    expect(ownerView.status).toBe(200);
    expect(anonView.status).toBe(200);
    expect(ownerView.body.documents).toBe(2);
    expect(anonView.body.documents).toBe(1);
    expect(anonView.body.chunks).toBeLessThan(ownerView.body.chunks);
    expect(anonView.body).toMatchObject({ processing: 0, ready: true });
    // The listed documents follow the same rule: the private one only for the owner.
    expect(ownerView.body.items).toHaveLength(2);
    expect(anonView.body.items).toHaveLength(1);
    expect(JSON.stringify(anonView.body)).not.toContain('public-secret.txt');
    expect(anonView.body.items[0]).toMatchObject({ status: 'ready', progress: 100 });
    expect((await summary(recipient, pid)).body.documents).toBeGreaterThanOrEqual(1);
    expect((await summary(stranger, pid)).status).toBe(404);
    expect((await summary(anonymous, pid)).status).toBe(404);
    expect((await summary(admin, pid)).status).toBe(404);
  });
});
