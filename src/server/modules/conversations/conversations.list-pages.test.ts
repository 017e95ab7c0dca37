// The saved-conversation list comes a page at a time (?limit=&offset=, 50 by default), most
// recently active first, with `hasMore` saying whether an older page exists: a person with
// thousands of conversations gets the recent ones at once and reaches older ones on request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { insertConversation, insertMessage } from './conversations.repository';
import { createPersonality, makePublic } from './conversations.test-support';

const TOTAL = 55;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const minutes = (n: number) => new Date(START + n * 60_000);

let server: TestServer;
let owner: TestClient & { id: string };
let other: TestClient & { id: string };
let personalityId: string;
let othersIds: string[];

interface Summary {
  id: string;
  title: string;
  updatedAt: string;
}
interface Page {
  conversations: Summary[];
  hasMore: boolean;
}

async function page(client: TestClient, query = ''): Promise<Page> {
  const res = await client.get<Page>(`/api/personalities/${personalityId}/conversations${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

beforeAll(async () => {
  server = await startTestServer();
  [owner, other] = await Promise.all([server.user(), server.user()]);
  personalityId = await createPersonality(owner, 'Paged Ada');
  await makePublic(server.database.db, personalityId);
  const db = server.database.db;
  // Two conversations per minute, so pages also have to break ties (by id) without repeating one.
  const ownIds: string[] = [];
  for (let i = 0; i < TOTAL; i++) {
    const row = await insertConversation(db, { userId: owner.id, personalityId, title: `Conversation ${i}`, greeting: 'Hello', now: minutes(Math.floor(i / 2)) });
    ownIds.push(row.id);
  }
  // The oldest one was written in again just now: it is the most recently active.
  await insertMessage(db, { conversationId: ownIds[0]!, role: 'user', kind: 'message', content: 'Back again', now: minutes(1000) });
  othersIds = [];
  for (let i = 0; i < 3; i++) {
    const row = await insertConversation(db, { userId: other.id, personalityId, title: `Not yours ${i}`, greeting: 'Hello', now: minutes(500 + i) });
    othersIds.push(row.id);
  }
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/personalities/{id}/conversations, a page at a time', () => {
  it('answers the 50 most recently active first, then the rest after offset 50, none twice', async () => {
    const first = await page(owner);
    expect(first.conversations).toHaveLength(50);
    expect(first.hasMore).toBe(true);
    expect(first.conversations[0]!.title).toBe('Conversation 0');

    const rest = await page(owner, '?offset=50');
    expect(rest.conversations).toHaveLength(5);
    expect(rest.hasMore).toBe(false);

    const all = [...first.conversations, ...rest.conversations];
    expect(new Set(all.map((c) => c.id)).size).toBe(TOTAL);
    const times = all.map((c) => Date.parse(c.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The oldest left are the first ones written (after the one written in again).
    expect(rest.conversations.map((c) => c.title).sort()).toEqual(['Conversation 1', 'Conversation 2', 'Conversation 3', 'Conversation 4', 'Conversation 5']);
  });

  it('takes a smaller page anywhere in the list, in the same order as the whole', async () => {
    const whole = [...(await page(owner, '?limit=100')).conversations];
    expect(whole).toHaveLength(TOTAL);
    const middle = await page(owner, '?limit=10&offset=20');
    expect(middle.conversations.map((c) => c.id)).toEqual(whole.slice(20, 30).map((c) => c.id));
    expect(middle.hasMore).toBe(true);
    const last = await page(owner, '?limit=5&offset=50');
    expect(last.hasMore).toBe(false);
    expect((await page(owner, '?offset=55')).conversations).toEqual([]);
  });

  it("never lists another person's conversations", async () => {
    const mine = await page(owner, '?limit=100');
    expect(mine.conversations.filter((c) => othersIds.includes(c.id))).toEqual([]);
    const theirs = await page(other);
    expect(theirs).toEqual({ conversations: expect.any(Array), hasMore: false });
    expect(theirs.conversations.map((c) => c.title)).toEqual(['Not yours 2', 'Not yours 1', 'Not yours 0']);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=2.5', 'offset=x'])('refuses ?%s with 400', async (query) => {
    const res = await owner.get(`/api/personalities/${personalityId}/conversations?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });
});
