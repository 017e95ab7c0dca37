// The chat limit is counted inside the chat's first read (rateLimitBeside's hit in
// findVisibleWithHistory's statement), or on its own where there is no such read (a malformed id,
// "Send Prompt"'s preview id). Whichever path: past the limit the answer is 429, before a missing
// or hidden personality's 404, and nothing of the refused message is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { apiRateLimits } from '../../db/schema/rate-limits';
import { chat, createPersonality } from './conversations.test-support';

const clock = { at: Date.UTC(2030, 0, 1, 12, 0, 0), now: () => new Date(clock.at) };
const MAX = 4;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { RATE_LIMIT_CHAT_PER_MINUTE: String(MAX) } });
});
afterAll(async () => {
  await server?.close();
});

describe('the chat limit, counted in the first read', () => {
  it('answers 429 past the limit on every path, before 404, and keeps nothing of a refused message', async () => {
    const owner = await server.user();
    const stranger = await server.user();
    const id = await createPersonality(owner, 'Ada');
    const hidden = await createPersonality(stranger, 'Hidden');
    const missing = '00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < MAX; i++) expect((await chat(owner, id, { message: `asked ${i}` })).status).toBe(200);

    const refused = [
      await chat(owner, id, { message: 'too many' }),
      await chat(owner, hidden, { message: 'too many' }),
      await chat(owner, missing, { message: 'too many' }),
      await chat(owner, 'not-an-id', { message: 'too many' }),
      await chat(owner, id, { message: 'too many', previewId: 'forged' }),
    ];
    expect(refused.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    // (Creating the personality counted in a window of its own.)
    const counter = await server.database.db.select().from(apiRateLimits).where(eq(apiRateLimits.subject, `user:${owner.id}`));
    expect(counter.filter((r) => r.endpoint !== 'personalities/create').map((r) => [r.endpoint, r.requestCount])).toEqual([['chat', MAX + refused.length]]);
    const kept = JSON.stringify([(await owner.get(`/api/personalities/${id}/conversations`)).body, (await owner.get(`/api/personalities/${id}/questions`)).body]);
    expect(kept).toContain(`asked ${MAX - 1}`);
    expect(kept).not.toContain('too many');

    // The next window: the same requests get their own answers again.
    clock.at += 60_000;
    expect((await chat(owner, missing, { message: 'hello' })).status).toBe(404);
    expect((await chat(owner, hidden, { message: 'hello' })).status).toBe(404);
    expect((await chat(owner, 'not-an-id', { message: 'hello' })).status).toBe(404);
    expect((await chat(owner, id, { message: 'hello' })).status).toBe(200);
  });
});
