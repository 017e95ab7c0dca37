// With the fake embedding server: chunks get embeddings, a vector query finds the right chunk, the
// full-text search ranks by stemmed words, and both leave out what the asker may not use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { fakeEmbedding, startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { nearestChunks, searchChunksFullText } from './chunk-search.repository';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';
import { asFirstPerson } from '../conversations/retrieval';

const DIMS = 128;
let fake: FakeOpenAI;
let server: TestServer;
let owner: Awaited<ReturnType<TestServer['user']>>;
let recipient: Awaited<ReturnType<TestServer['user']>>;
let stranger: Awaited<ReturnType<TestServer['user']>>;
let pid: string;
let astronomy: string;
let diary: string;

const astronomyText = [
  'The lighthouse keeper polished the brass lamp every evening before the ships came home.',
  'Through the telescope she watched distant galaxies, nebulae and the rings of Saturn turning slowly.',
  'Bread dough must rest for an hour so the yeast can rise before it goes in the oven.',
].join('\n\n');
const diaryText = 'My private note: the zeppelin flight over the harbour was the best day of the summer.';

beforeAll(async () => {
  fake = await startFakeOpenAI({ dimensions: DIMS });
  server = await startTestServer({
    env: { LLM_BASE_URL: fake.url, LLM_API_KEY: 'sk-test-key', EMBEDDING_MODEL: 'fake-embedding', JOB_POLL_MS: '50', CHUNK_SIZE: '120', CHUNK_OVERLAP: '0' },
  });
  owner = await server.user();
  recipient = await server.user();
  stranger = await server.user();
  pid = await createPersonality(owner);
  expect((await owner.post(`/api/personalities/${pid}/shares`, { email: recipient.email })).status).toBe(201);
  astronomy = await uploadOne(owner, pid, { name: 'mixed.txt', data: astronomyText });
  diary = await uploadOne(owner, pid, { name: 'diary.txt', data: diaryText }, { isPrivate: 'true' });
  await waitForDocument(owner, pid, astronomy);
  await waitForDocument(owner, pid, diary);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('retrieval over chunks', () => {
  it('embeds every chunk through the OpenAI-compatible endpoint, in batches, with the key', async () => {
    const docs = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents;
    for (const d of docs) expect(d.embeddedCount).toBe(d.chunkCount);
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests.every((r) => r.body.model === 'fake-embedding' && r.authorization === 'Bearer sk-test-key')).toBe(true);
    const embeddedTexts = fake.requests.flatMap((r) => r.body.input as string[]);
    expect(embeddedTexts).toContain('Through the telescope she watched distant galaxies, nebulae and the rings of Saturn turning slowly.');
  });

  it('finds the right chunk by vector', async () => {
    const hits = await nearestChunks(server.database.db, server.database.vectorStore, {
      personalityId: pid,
      viewerId: owner.id,
      embedding: fakeEmbedding('telescope galaxies saturn', DIMS),
      model: 'fake-embedding',
      limit: 2,
    });
    expect(hits[0]).toMatchObject({ documentId: astronomy, fileName: 'mixed.txt', chunkIndex: 1 });
    expect(hits[0]!.content).toContain('telescope');
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    // Another model's (or dimension's) vectors are never compared.
    expect(await nearestChunks(server.database.db, server.database.vectorStore, { personalityId: pid, viewerId: owner.id, embedding: fakeEmbedding('telescope', 64), model: 'fake-embedding', limit: 2 })).toEqual([]);
  });

  it('ranks chunks by full-text match with stemming', async () => {
    const hits = await searchChunksFullText(server.database.db, { personalityId: pid, viewerId: owner.id, query: 'Which telescopes and galaxy?', limit: 5 });
    expect(hits[0]).toMatchObject({ documentId: astronomy, chunkIndex: 1 });
    expect(await searchChunksFullText(server.database.db, { personalityId: pid, viewerId: owner.id, query: 'the and of', limit: 5 })).toEqual([]);
    expect(await searchChunksFullText(server.database.db, { personalityId: pid, viewerId: owner.id, query: "it's a 'quoted' & | ! (query)", limit: 5 })).toEqual([]);
  });

  it('uses a private document only for its owner, and nothing for those who cannot see the personality', async () => {
    const db = server.database.db;
    const vector = fakeEmbedding('zeppelin flight harbour', DIMS);
    const byVector = (viewerId: string | null) => nearestChunks(db, server.database.vectorStore, { personalityId: pid, viewerId, embedding: vector, model: 'fake-embedding', limit: 10 });
    const byText = (viewerId: string | null) => searchChunksFullText(db, { personalityId: pid, viewerId, query: 'zeppelin', limit: 10 });
    expect((await byVector(owner.id))[0]!.documentId).toBe(diary);
    expect((await byText(owner.id)).map((h) => h.documentId)).toEqual([diary]);
    const recipientHits = await byVector(recipient.id);
    expect(recipientHits.length).toBeGreaterThan(0);
    expect(recipientHits.some((h) => h.documentId === diary)).toBe(false);
    expect(await byText(recipient.id)).toEqual([]);
    for (const viewer of [stranger.id, null]) {
      expect(await byVector(viewer)).toEqual([]);
      expect(await searchChunksFullText(db, { personalityId: pid, viewerId: viewer, query: 'telescope', limit: 5 })).toEqual([]);
    }
  });

  it('embeds a clicked conversation starter once, and a typed question each time it is asked', async () => {
    const starters = (await owner.get(`/api/personalities/${pid}/starters`)).body.starters as string[];
    expect(starters.length).toBeGreaterThan(0);
    const ask = async (message: string) => {
      const res = await owner.raw(`/api/personalities/${pid}/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('event: done');
    };
    const embeddedTimes = (message: string) => fake.requests.flatMap((r) => r.body.input as string[]).filter((t) => t === asFirstPerson(message)).length;
    await ask(starters[0]!);
    await ask(starters[0]!);
    expect(embeddedTimes(starters[0]!)).toBe(1);
    const typed = 'What did you see through the telescope?';
    await ask(typed);
    await ask(typed);
    expect(embeddedTimes(typed)).toBe(2);
  });
});

