// The library's size: every visitor reads every public personality in one answer, so what no card
// shows them stays out of it. Behavior instructions (up to 20,000 characters each) are listed for
// their owner only, who edits them; anyone else, an admin too, gets null in the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { personalities } from '../../db/schema/personalities';
import { personalityShares } from '../../db/schema/sharing';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_EMAILS: 'list-admin@example.com' } });
});
afterAll(async () => {
  await server?.close();
});

type Listed = { id: string; name: string; behaviorInstructions: string | null; isOwner: boolean };

async function library(client: TestClient): Promise<Listed[]> {
  const res = await client.get('/api/personalities');
  expect(res.status).toBe(200);
  return res.body.personalities as Listed[];
}

describe('behavior instructions in the library', () => {
  it('go to the owner only: others, anonymous visitors and admins get null', async () => {
    const owner = await server.user();
    const recipient = await server.user();
    const stranger = await server.user();
    const admin = await server.user('list-admin@example.com');
    expect((await admin.get('/api/me')).body.isAdmin).toBe(true);
    const instructions = Array.from({ length: 500 }, () => 'Answer in rhyming couplets.').join(' ');
    const make = async (name: string, sharing: 'private' | 'shared' | 'public') => {
      const res = await owner.post('/api/personalities', { name, description: `${name} description`, behaviorInstructions: instructions });
      expect(res.status).toBe(201);
      const id = res.body.personality.id as string;
      await server.database.db.update(personalities).set({ sharingType: sharing, isPublic: sharing === 'public' }).where(eq(personalities.id, id));
      return id;
    };
    const publicId = await make('Listed public', 'public');
    const sharedId = await make('Listed shared', 'shared');
    const privateId = await make('Listed private', 'private');
    await server.database.db.insert(personalityShares).values({ personalityId: sharedId, sharedWithUserId: recipient.id, sharedByUserId: owner.id });

    // The owner's edit form starts from them.
    const own = await library(owner);
    for (const id of [publicId, sharedId, privateId]) {
      expect(own.find((p) => p.id === id)).toMatchObject({ isOwner: true, behaviorInstructions: instructions });
    }

    const others: [string, TestClient][] = [
      ['anonymous', server.client()],
      ['stranger', stranger],
      ['share recipient', recipient],
      ['admin', admin],
    ];
    for (const [who, client] of others) {
      const listed = await library(client);
      const pub = listed.find((p) => p.id === publicId);
      expect(pub, who).toMatchObject({ name: 'Listed public', isOwner: false, behaviorInstructions: null });
      expect(JSON.stringify(listed), who).not.toContain('rhyming couplets');
    }
    expect((await library(recipient)).find((p) => p.id === sharedId)).toMatchObject({ name: 'Listed shared', behaviorInstructions: null });
  });

  it("leave the rest of a non-owner's card as it was", async () => {
    const owner = await server.user();
    const res = await owner.post('/api/personalities', {
      name: 'Full card',
      description: 'See https://example.org',
      behaviorInstructions: 'Be brief.',
      greeting: 'Hello there.',
      voiceProvider: 'openai',
      voice: 'echo',
    });
    expect(res.status).toBe(201);
    const id = res.body.personality.id as string;
    await server.database.db.update(personalities).set({ sharingType: 'public', isPublic: true }).where(eq(personalities.id, id));
    const asOwner = (await library(owner)).find((p) => p.id === id)!;
    const asVisitor = (await library(server.client())).find((p) => p.id === id)!;
    expect(asVisitor).toEqual({ ...asOwner, isOwner: false, behaviorInstructions: null });
  });
});
