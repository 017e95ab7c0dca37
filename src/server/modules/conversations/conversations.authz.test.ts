// Authorization matrix over every conversation and question route: anonymous, signed-in
// stranger, share recipient (while shared and after unsharing), owner and admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { chat, createPersonality, makePublic, seedDocument, shareDirectly, unshareDirectly } from './conversations.test-support';

const ADMIN_EMAIL = 'conversations-admin@example.com';
let server: TestServer;
let anonymous: TestClient;
let stranger: TestClient & { id: string };
let recipient: TestClient & { id: string };
let owner: TestClient & { id: string };
let admin: TestClient & { id: string };
let personalityId: string;
let publicId: string;

beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
  anonymous = server.client();
  [stranger, recipient, owner, admin] = await Promise.all([server.user(), server.user(), server.user(), server.user(ADMIN_EMAIL)]);
  personalityId = await createPersonality(owner, 'Shared Ada');
  await seedDocument(server.database.db, { personalityId, fileName: 'notes.txt', chunks: ['Babbage and I discussed the engine.'] });
  await shareDirectly(server.database.db, personalityId, owner.id, recipient.id);
  publicId = await createPersonality(owner, 'Public Ada');
  await makePublic(server.database.db, publicId);
});
afterAll(async () => {
  await server?.close();
});

type Actor = 'anonymous' | 'stranger' | 'recipient' | 'owner' | 'admin';
const actors = (): Record<Actor, TestClient> => ({ anonymous, stranger, recipient, owner, admin });

async function call(client: TestClient, method: string, path: string, body?: unknown): Promise<number> {
  if (path.endsWith('/chat')) return (await chat(client, path.split('/')[3]!, body as Record<string, unknown>)).status;
  return (await client.request(method, path, body)).status;
}

async function expectMatrix(method: string, path: string | (() => string), expected: Record<Actor, number>, body?: unknown) {
  const got: Partial<Record<Actor, number>> = {};
  for (const [name, client] of Object.entries(actors()) as [Actor, TestClient][]) {
    got[name] = await call(client, method, typeof path === 'function' ? path() : path, body);
  }
  expect(got, `${method} ${typeof path === 'function' ? path() : path}`).toEqual(expected);
}

describe('conversation routes refuse whoever may not see the personality or conversation', () => {
  it('chat, preview and starters: whoever may see the personality', async () => {
    const seeing = { anonymous: 404, stranger: 404, recipient: 200, owner: 200, admin: 404 };
    await expectMatrix('GET', `/api/personalities/${personalityId}/starters`, seeing);
    await expectMatrix('POST', `/api/personalities/${personalityId}/chat/preview`, seeing, { message: 'Engine?' });
    await expectMatrix('POST', `/api/personalities/${personalityId}/chat`, seeing, { message: 'Engine?' });
    const everyone = { anonymous: 200, stranger: 200, recipient: 200, owner: 200, admin: 200 };
    await expectMatrix('GET', `/api/personalities/${publicId}/starters`, everyone);
    await expectMatrix('POST', `/api/personalities/${publicId}/chat`, everyone, { message: 'Hello' });
    await expectMatrix('GET', '/api/personalities/not-a-uuid/starters', { anonymous: 404, stranger: 404, recipient: 404, owner: 404, admin: 404 });
  });

  it('saved conversation lists and creation: signed in and able to see the personality', async () => {
    await expectMatrix('GET', `/api/personalities/${personalityId}/conversations`, { anonymous: 401, stranger: 404, recipient: 200, owner: 200, admin: 404 });
    await expectMatrix('POST', `/api/personalities/${personalityId}/conversations`, { anonymous: 401, stranger: 404, recipient: 201, owner: 201, admin: 404 }, {});
    await expectMatrix('GET', `/api/personalities/${publicId}/conversations`, { anonymous: 401, stranger: 200, recipient: 200, owner: 200, admin: 200 });
  });

  it("one person can never read, continue, rename or delete another's conversation", async () => {
    const mine = await recipient.post(`/api/personalities/${personalityId}/conversations`, { title: 'Private thoughts' });
    const id = mine.body.conversation.id as string;
    const onlyRecipient = { anonymous: 401, stranger: 404, recipient: 200, owner: 404, admin: 404 };
    await expectMatrix('GET', `/api/conversations/${id}`, onlyRecipient);
    await expectMatrix('PATCH', `/api/conversations/${id}`, onlyRecipient, { title: 'Renamed' });
    // Continuing it: the personality's owner can see the personality but not this conversation.
    await expectMatrix('POST', `/api/personalities/${personalityId}/chat`, { anonymous: 404, stranger: 404, recipient: 200, owner: 404, admin: 404 }, {
      message: 'More?',
      conversationId: id,
    });
    for (const other of [anonymous, stranger, owner, admin]) expect([401, 404]).toContain((await other.delete(`/api/conversations/${id}`)).status);
    const still = await recipient.get(`/api/conversations/${id}`);
    expect(still.body.conversation.title).toBe('Renamed');
    expect(still.body.conversation.messages.map((m: { kind: string }) => m.kind)).toEqual(['greeting', 'message', 'message']);
    // Nobody else's list shows it.
    for (const other of [owner, admin, stranger]) {
      const list = await other.get(`/api/personalities/${publicId}/conversations`);
      expect(list.body.conversations.map((c: { id: string }) => c.id)).not.toContain(id);
    }
    // A conversation belongs to one personality: it cannot be continued through another.
    expect((await chat(recipient, publicId, { message: 'Hi', conversationId: id })).status).toBe(404);
    // Unguessable ids: random v4 UUIDs.
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the question log is the owner’s alone', async () => {
    const ownerOnly = { anonymous: 401, stranger: 404, recipient: 403, owner: 200, admin: 404 };
    await expectMatrix('GET', `/api/personalities/${personalityId}/questions`, ownerOnly);
    await expectMatrix('DELETE', `/api/personalities/${personalityId}/questions?before=2000-01-01`, ownerOnly);
    await expectMatrix('GET', `/api/personalities/${publicId}/questions`, { anonymous: 401, stranger: 403, recipient: 403, owner: 200, admin: 403 });
  });

  it('the system optimizations figures are for admins only', async () => {
    await expectMatrix('GET', '/api/admin/system-optimizations', { anonymous: 401, stranger: 403, recipient: 403, owner: 403, admin: 200 });
  });

  it('a share recipient loses every route, their own conversations included, once unshared', async () => {
    const kept = await recipient.post(`/api/personalities/${personalityId}/conversations`, {});
    const id = kept.body.conversation.id as string;
    expect((await recipient.get(`/api/conversations/${id}`)).status).toBe(200);
    await unshareDirectly(server.database.db, personalityId, recipient.id);
    const statuses = [
      await call(recipient, 'GET', `/api/personalities/${personalityId}/starters`),
      await call(recipient, 'POST', `/api/personalities/${personalityId}/chat/preview`, { message: 'Hi' }),
      await call(recipient, 'POST', `/api/personalities/${personalityId}/chat`, { message: 'Hi' }),
      await call(recipient, 'POST', `/api/personalities/${personalityId}/chat`, { message: 'Hi', conversationId: id }),
      await call(recipient, 'GET', `/api/personalities/${personalityId}/conversations`),
      await call(recipient, 'POST', `/api/personalities/${personalityId}/conversations`, {}),
      await call(recipient, 'GET', `/api/conversations/${id}`),
      await call(recipient, 'PATCH', `/api/conversations/${id}`, { title: 'x' }),
      await call(recipient, 'DELETE', `/api/conversations/${id}`),
      await call(recipient, 'GET', `/api/personalities/${personalityId}/questions`),
    ];
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404, 404]);
    // Shared again: the conversation is back, untouched.
    await shareDirectly(server.database.db, personalityId, owner.id, recipient.id);
    expect((await recipient.get(`/api/conversations/${id}`)).status).toBe(200);
  });
});
