// The authorization matrix over every personality route: anonymous, a signed-in stranger, a share
// recipient, the owner and an admin, each against a private, a shared and a public personality.
// Not visible must look exactly like not found (404); visible but not owned is 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { personalities } from '../../db/schema/personalities';
import { personalityShares } from '../../db/schema/sharing';
import { personalityDocuments, personalityDocumentChunks, personalityDocumentTexts } from '../../db/schema/documents';
import { insertDocument } from '../documents/documents.repository';

type Actor = 'anonymous' | 'stranger' | 'recipient' | 'owner' | 'admin';
type Target = 'private' | 'shared' | 'public';

let server: TestServer;
const actors = {} as Record<Actor, TestClient>;
const ids = {} as Record<Target, string>;

async function setSharing(id: string, sharingType: string | null, isPublic: boolean, displayOrder: number | null = null) {
  await server.database.db.update(personalities).set({ sharingType, isPublic, displayOrder }).where(eq(personalities.id, id));
}

async function nameOf(id: string): Promise<string | undefined> {
  const rows = await server.database.db.select({ name: personalities.name }).from(personalities).where(eq(personalities.id, id));
  return rows[0]?.name;
}

beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_EMAILS: 'admin@example.com' } });
  actors.anonymous = server.client();
  const owner = await server.user('owner@example.com');
  const recipient = await server.user('recipient@example.com');
  actors.owner = owner;
  actors.recipient = recipient;
  actors.stranger = await server.user('stranger@example.com');
  actors.admin = await server.user('admin@example.com');
  expect((await actors.admin.get('/api/me')).body.isAdmin).toBe(true);

  for (const target of ['private', 'shared', 'public'] as const) {
    const res = await owner.post('/api/personalities', { name: `Owner ${target}` });
    expect(res.status).toBe(201);
    ids[target] = res.body.personality.id;
  }
  await setSharing(ids.shared, 'shared', false);
  await setSharing(ids.public, 'public', true);
  // The sharing API is another module; a share is one row.
  await server.database.db
    .insert(personalityShares)
    .values({ personalityId: ids.shared, sharedWithUserId: recipient.id, sharedByUserId: owner.id });
});

afterAll(async () => {
  await server?.close();
});

// Which targets each actor may see.
const visible: Record<Actor, Target[]> = {
  anonymous: ['public'],
  stranger: ['public'],
  recipient: ['shared', 'public'],
  owner: ['private', 'shared', 'public'],
  admin: ['public'],
};

// Expected status of PATCH and DELETE for each actor and target.
function changeStatus(actor: Actor, target: Target): number {
  if (actor === 'anonymous') return 401;
  if (actor === 'owner') return 200;
  return visible[actor].includes(target) ? 403 : 404;
}

const allActors: Actor[] = ['anonymous', 'stranger', 'recipient', 'owner', 'admin'];
const allTargets: Target[] = ['private', 'shared', 'public'];

describe('GET /api/personalities (list)', () => {
  it.each(allActors)('%s sees exactly the personalities visible to them', async (actor) => {
    const res = await actors[actor].get('/api/personalities');
    expect(res.status).toBe(200);
    const got = (res.body.personalities as { id: string }[]).map((p) => p.id).sort();
    expect(got).toEqual(visible[actor].map((t) => ids[t]).sort());
  });

  it('marks only the owner as owner', async () => {
    for (const actor of allActors) {
      const res = await actors[actor].get('/api/personalities');
      for (const p of res.body.personalities as { isOwner: boolean }[]) expect(p.isOwner).toBe(actor === 'owner');
    }
  });
});

describe('GET /api/personalities/:id', () => {
  for (const actor of allActors) {
    for (const target of allTargets) {
      const expected = visible[actor].includes(target) ? 200 : 404;
      it(`${actor} reading a ${target} personality gets ${expected}`, async () => {
        const res = await actors[actor].get(`/api/personalities/${ids[target]}`);
        expect(res.status).toBe(expected);
        if (expected === 200) expect(res.body.personality.id).toBe(ids[target]);
        else expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Personality not found' } });
      });
    }
  }

  it('answers an unknown id and a malformed id the same way as a hidden one', async () => {
    const unknown = await actors.stranger.get('/api/personalities/00000000-0000-4000-8000-000000000000');
    const malformed = await actors.stranger.get('/api/personalities/not-a-uuid');
    const hidden = await actors.stranger.get(`/api/personalities/${ids.private}`);
    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
    expect(unknown.body).toEqual(hidden.body);
    expect(malformed.body).toEqual(hidden.body);
  });
});

describe('POST /api/personalities', () => {
  it('refuses anonymous visitors', async () => {
    const res = await actors.anonymous.post('/api/personalities', { name: 'Sneaky' });
    expect(res.status).toBe(401);
    const rows = await server.database.db.select().from(personalities).where(eq(personalities.name, 'Sneaky'));
    expect(rows).toHaveLength(0);
  });

  it.each(['stranger', 'recipient', 'owner', 'admin'] as const)('lets %s create a private personality they own', async (actor) => {
    const res = await actors[actor].post('/api/personalities', { name: `Made by ${actor}` });
    expect(res.status).toBe(201);
    expect(res.body.personality).toMatchObject({ name: `Made by ${actor}`, isOwner: true, sharingType: 'private', isPublic: false });
    // Nobody else sees it.
    const other = actor === 'owner' ? actors.stranger : actors.owner;
    expect((await other.get(`/api/personalities/${res.body.personality.id}`)).status).toBe(404);
    await actors[actor].delete(`/api/personalities/${res.body.personality.id}`);
  });

  it('refuses an owner id sent by the client instead of trusting it', async () => {
    const ownerId = (actors.owner as TestClient & { id: string }).id;
    const res = await actors.stranger.post('/api/personalities', { name: 'Impostor', userId: ownerId });
    expect(res.status).toBe(400);
    expect(await server.database.db.select().from(personalities).where(eq(personalities.name, 'Impostor'))).toHaveLength(0);
  });
});

describe('PATCH /api/personalities/:id', () => {
  for (const actor of allActors) {
    for (const target of allTargets) {
      const expected = changeStatus(actor, target);
      it(`${actor} changing a ${target} personality gets ${expected}`, async () => {
        const before = await nameOf(ids[target]);
        const res = await actors[actor].patch(`/api/personalities/${ids[target]}`, { name: `Renamed by ${actor}` });
        expect(res.status).toBe(expected);
        if (expected === 200) {
          expect(res.body.personality.name).toBe(`Renamed by ${actor}`);
          await actors.owner.patch(`/api/personalities/${ids[target]}`, { name: before });
        } else {
          expect(res.body.error.code).toBe({ 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[expected]);
          expect(await nameOf(ids[target])).toBe(before);
        }
      });
    }
  }
});

describe('DELETE /api/personalities/:id', () => {
  for (const actor of ['anonymous', 'stranger', 'recipient', 'admin'] as const) {
    for (const target of allTargets) {
      const expected = changeStatus(actor, target);
      it(`${actor} deleting a ${target} personality gets ${expected} and it stays`, async () => {
        const res = await actors[actor].delete(`/api/personalities/${ids[target]}`);
        expect(res.status).toBe(expected);
        expect(await nameOf(ids[target])).toBeDefined();
      });
    }
  }

  it('lets the owner delete, removing shares, documents and chunks with it', async () => {
    const db = server.database.db;
    const created = await actors.owner.post('/api/personalities', { name: 'Doomed' });
    const id = created.body.personality.id as string;
    await setSharing(id, 'shared', false);
    await db.insert(personalityShares).values({ personalityId: id, sharedWithUserId: (actors.recipient as TestClient & { id: string }).id });
    const doc = await insertDocument(db, { personalityId: id, fileName: 'notes.txt', content: 'hello' });
    await db.insert(personalityDocumentChunks).values({ documentId: doc.id, personalityId: id, chunkIndex: 0, content: 'hello' });
    expect((await actors.recipient.get(`/api/personalities/${id}`)).status).toBe(200);

    const res = await actors.owner.delete(`/api/personalities/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await nameOf(id)).toBeUndefined();
    expect(await db.select().from(personalityShares).where(eq(personalityShares.personalityId, id))).toHaveLength(0);
    expect(await db.select().from(personalityDocuments).where(eq(personalityDocuments.personalityId, id))).toHaveLength(0);
    expect(await db.select().from(personalityDocumentChunks).where(eq(personalityDocumentChunks.personalityId, id))).toHaveLength(0);
    expect(await db.select().from(personalityDocumentTexts).where(eq(personalityDocumentTexts.documentId, doc.id))).toHaveLength(0);
    expect((await actors.owner.get(`/api/personalities/${id}`)).status).toBe(404);
    expect((await actors.owner.delete(`/api/personalities/${id}`)).status).toBe(404);
  });
});

describe('sharing level decides what a share grants', () => {
  it('hides a shared personality from its recipient once the owner makes it private again', async () => {
    await setSharing(ids.shared, 'private', false);
    try {
      expect((await actors.recipient.get(`/api/personalities/${ids.shared}`)).status).toBe(404);
      expect((await actors.recipient.patch(`/api/personalities/${ids.shared}`, { name: 'x' })).status).toBe(404);
      const list = await actors.recipient.get('/api/personalities');
      expect((list.body.personalities as { id: string }[]).map((p) => p.id)).not.toContain(ids.shared);
    } finally {
      await setSharing(ids.shared, 'shared', false);
    }
  });

  it('applies the fallback rule when sharing_type is missing (is_public decides)', async () => {
    const created = await actors.owner.post('/api/personalities', { name: 'Legacy' });
    const id = created.body.personality.id as string;
    await setSharing(id, null, true);
    const seen = await actors.anonymous.get(`/api/personalities/${id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.personality.sharingType).toBe('public');
    await setSharing(id, null, false);
    expect((await actors.anonymous.get(`/api/personalities/${id}`)).status).toBe(404);
    expect((await actors.owner.get(`/api/personalities/${id}`)).body.personality.sharingType).toBe('private');
    await actors.owner.delete(`/api/personalities/${id}`);
  });
});
