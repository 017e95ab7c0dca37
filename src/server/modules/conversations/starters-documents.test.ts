// The starters name a public personality's public documents. The context cache keeps them, keyed
// on the personality's updated_at, which a change to its documents does not touch: such a change
// must still reach the starters at once (a document made private, or deleted, must not keep its
// title in front of every visitor for the cache's ten minutes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { createPersonality, makePublic } from './conversations.test-support';
import { uploadOne, waitForDocument } from '../documents/documents.test-support';
import { systemClock } from '../../lib/clock';
import { createContextCache } from './context-cache';
import { createPersonaContexts } from './persona-context';
import { createConversationService } from './conversations.service';
import type { ChatResponder } from '../../ai/providers';
import { eq } from 'drizzle-orm';
import { personalityDocuments } from '../../db/schema/documents';
import { findVisible } from '../personalities/personalities.repository';
import { withHeldCatchUp } from '../../test-support/held-catch-up-bus';

let server: TestServer;
let owner: TestClient & { id: string };
let visitor: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.user();
  visitor = server.client();
});
afterAll(async () => {
  await server?.close();
});

const startersFor = async (id: string) => (await visitor.get(`/api/personalities/${id}/starters`)).body.starters as string[];
const naming = (starters: string[], title: string) => starters.some((s) => s.includes(title));

describe('starters follow the documents', () => {
  it('drop a document title as soon as it is made private or deleted, and bring it back when public again', async () => {
    const id = await createPersonality(owner, 'Grace Hopper');
    await makePublic(server.database.db, id);
    const docId = await uploadOne(owner, id, { name: 'medical_diagnosis_2024.txt', data: 'Notes from the clinic visit in March.' });
    await waitForDocument(owner, id, docId);
    expect(naming(await startersFor(id), 'medical diagnosis 2024')).toBe(true);

    expect((await owner.patch(`/api/personalities/${id}/documents/${docId}`, { isPrivate: true })).status).toBe(200);
    expect(naming(await startersFor(id), 'medical diagnosis 2024')).toBe(false);

    expect((await owner.patch(`/api/personalities/${id}/documents/${docId}`, { isPrivate: false })).status).toBe(200);
    expect(naming(await startersFor(id), 'medical diagnosis 2024')).toBe(true);

    expect((await owner.delete(`/api/personalities/${id}/documents/${docId}`)).status).toBe(200);
    expect(naming(await startersFor(id), 'medical diagnosis 2024')).toBe(false);
  });
});

describe('a document changed through another process', () => {
  it('reuses the cached starters only once the bus has caught up, and rebuilds them when it cannot tell', async () => {
    const db = server.database.db;
    const id = await createPersonality(owner, 'Ada Byron');
    await makePublic(db, id);
    const docId = await uploadOne(owner, id, { name: 'analytical_engine_notes.txt', data: 'Notes on the engine.' });
    await waitForDocument(owner, id, docId);
    const row = (await findVisible(db, id, null))!;
    await withHeldCatchUp(async (_bus, answer) => {
      const contexts = createPersonaContexts(db, createContextCache({ clock: systemClock }));
      expect(naming((await contexts.get(row)).context.starters, 'analytical engine notes')).toBe(true);
      // Another process made it private: the row has changed, its notice has not come in.
      await db.update(personalityDocuments).set({ isPrivate: true }).where(eq(personalityDocuments.id, docId));
      const heard = contexts.get(row);
      await new Promise((r) => setTimeout(r, 0));
      answer(true);
      // Caught up and no notice: the cache answers (what it would keep until the notice came).
      expect(naming((await heard).context.starters, 'analytical engine notes')).toBe(true);
      const unsure = contexts.get(row);
      await new Promise((r) => setTimeout(r, 0));
      answer(false);
      expect(naming((await unsure).context.starters, 'analytical engine notes')).toBe(false);
    });
  });
});

describe('opening a chat', () => {
  it("starts loading the asker's retrieval indexes, with the asker's own right, only once access is granted", async () => {
    const db = server.database.db;
    const warmed: { personalityId: string; viewerId: string | null }[] = [];
    const conversations = createConversationService({
      db,
      clock: systemClock,
      contexts: createPersonaContexts(db, createContextCache({ clock: systemClock })),
      responder: { mode: 'offline', label: 'offline' } as ChatResponder,
      warmRetrieval: (scope) => warmed.push(scope),
    });
    const privateId = await createPersonality(owner, 'Private Person');
    const ownerViewer = { id: owner.id } as never;
    await conversations.starters(ownerViewer, privateId);
    expect(warmed).toEqual([{ personalityId: privateId, viewerId: owner.id }]);
    // Someone who may not see it learns nothing and loads nothing.
    await expect(conversations.starters(null, privateId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(warmed).toHaveLength(1);
    await makePublic(db, privateId);
    await conversations.starters(null, privateId);
    expect(warmed[1]).toEqual({ personalityId: privateId, viewerId: null });
  });
});
