// A server asked to stop while a reply is being saved (its reader left a moment before) saves it
// before the database closes: the words the person saw are there after the restart. The stopped
// reply's moderation check is held 800 ms here, so closing the database without waiting for it
// would lose the reply every time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, startTestServer, type TestServer } from '../../test-support/test-server';
import { startFakeChat, type FakeChat } from '../../../../tests/fakes/openai-chat-fake';
import { startFakeModeration, type FakeModeration } from '../../../../tests/fakes/openai-moderation-fake';
import { conversationMessages } from '../../db/schema/conversations';
import { createPersonality } from './conversations.test-support';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** The same data for two servers one after the other: PGlite in a folder, or a scratch PostgreSQL database. */
async function dataForTwoServers(): Promise<{ dataDir: string; databaseUrl?: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-shutdown-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  if (!process.env.TEST_DATABASE_URL) return { dataDir };
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL);
  cleanups.push(() => scratch.drop());
  return { dataDir, databaseUrl: scratch.databaseUrl };
}

describe('shutdown while a reply is being saved', () => {
  it('keeps the stopped reply', async () => {
    const { dataDir, databaseUrl } = await dataForTwoServers();
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const chat: FakeChat = await startFakeChat({ mode: 'reply', reply: words, delayMs: 60 });
    const moderation: FakeModeration = await startFakeModeration();
    cleanups.push(() => chat.close(), () => moderation.close());
    const env = {
      LLM_BASE_URL: chat.url,
      LLM_API_KEY: 'fake',
      LLM_MODEL: 'fake-model',
      MODERATION_MODEL: 'omni-moderation-latest',
      OPENAI_BASE_URL: moderation.url,
      OPENAI_API_KEY: 'fake',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };

    const first: TestServer = await startTestServer({ dataDir, env });
    const owner = await first.user('keeper@example.com');
    const pid = await createPersonality(owner, 'Ada');
    const reader = new AbortController();
    const res = await owner.raw(`/api/personalities/${pid}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Tell me a long story' }),
      signal: reader.signal,
    });
    expect(res.status).toBe(200);
    const stream = res.body!.getReader();
    let seen = '';
    while ((seen.match(/event: delta/g) ?? []).length < 3) seen += new TextDecoder().decode((await stream.read()).value);

    // The check of what was said now takes a while; the reader leaves and the server stops.
    moderation.set({ delayMs: 800 });
    const closing = first.close();
    reader.abort();
    await closing;
    expect(first.logs.filter((l) => /could not save/.test(l))).toEqual([]);

    const second: TestServer = await startTestServer({ dataDir, env });
    cleanups.push(() => second.close());
    const saved = await second.database.db.select().from(conversationMessages).orderBy(asc(conversationMessages.createdAt));
    const reply = saved.filter((m) => m.role === 'assistant' && m.kind !== 'greeting');
    expect(saved.some((m) => m.role === 'user' && m.content === 'Tell me a long story')).toBe(true);
    expect(reply).toHaveLength(1);
    expect(reply[0]!.kind).toBe('stopped');
    expect(reply[0]!.content).toMatch(/^word0 word1 word2/);
  });

  it('stops a reply whose model fell silent instead of waiting out its idle limit, keeping what was said', async () => {
    const { dataDir, databaseUrl } = await dataForTwoServers();
    // Half the words, then silence (the model hangs); its idle limit is far beyond this test's time.
    const words = Array.from({ length: 20 }, (_, i) => `word${i}`).join(' ');
    const chat: FakeChat = await startFakeChat({ mode: 'stall', reply: words, delayMs: 10 });
    cleanups.push(() => chat.close());
    const env = {
      LLM_BASE_URL: chat.url,
      LLM_API_KEY: 'fake',
      LLM_MODEL: 'fake-model',
      LLM_IDLE_TIMEOUT_MS: '600000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const first: TestServer = await startTestServer({ dataDir, env });
    const owner = await first.user('stalled@example.com');
    const pid = await createPersonality(owner, 'Ada');
    const res = await owner.raw(`/api/personalities/${pid}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Tell me a long story' }),
    });
    const stream = res.body!.getReader();
    let seen = '';
    while (!seen.includes('word9')) seen += new TextDecoder().decode((await stream.read()).value);

    // The reader stays; the server is asked to stop. It ends the reply (the test's own timeout,
    // far below the model's idle limit, would fail a shutdown that waited for it).
    const closing = first.close();
    for (;;) {
      const { done, value } = await stream.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    await closing;

    const second: TestServer = await startTestServer({ dataDir, env });
    cleanups.push(() => second.close());
    const saved = await second.database.db.select().from(conversationMessages).orderBy(asc(conversationMessages.createdAt));
    const reply = saved.filter((m) => m.role === 'assistant' && m.kind !== 'greeting');
    expect(reply).toHaveLength(1);
    expect(reply[0]!.kind).toBe('stopped');
    expect(reply[0]!.content).toMatch(/^word0 word1 .* word9/);
  }, 60_000);
});

