// The embedded embedding model is the offline default: an uploaded document is embedded in the
// background job (chunks and their sentences), the vectors are stored in the database with the
// model that made them, and after a restart chat uses them without embedding anything again. A
// configured EMBEDDING_MODEL (the OpenAI-compatible fake) then replaces the embedded model: what it
// made is re-embedded by the new one. Through real HTTP on a persistent PGlite folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { EMBEDDED_MODEL_ID } from '../../ai/embedded/embedded-embeddings';
import { chat, eventOf } from '../conversations/conversations.test-support';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-embedded-'));
let server: TestServer | undefined;
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  // Each step ends its server, so the next can open the same folder, even when it failed.
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// The answer shares no word with the question below; the other passage shares its words.
const ANSWER = 'My father was a railway signalman on the line to Vännäs, and he worked nights.';
const TEXT = [ANSWER, "Living on a farm, my dad's cousin kept forty hens and a dog.", 'The winter of 1962 was the coldest I remember.'].join('\n\n');
const QUESTION = 'What did your dad do for a living?';

interface EmbeddingRow {
  model: string;
  sentences: number;
  n: number;
}

async function embeddingRows(s: TestServer): Promise<EmbeddingRow[]> {
  const res = (await s.database.db.execute(
    sql`select model, count(*)::int as n, count(sentence_embeddings)::int as sentences from personality_chunk_embeddings group by model order by model`,
  )) as unknown as { rows: EmbeddingRow[] };
  return res.rows.map((r) => ({ model: r.model, n: Number(r.n), sentences: Number(r.sentences) }));
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(process.env.TEST_DATABASE_URL)('the embedded embedding model (PGlite: pgvector bundled)', () => {
  let personalityId = '';
  let ownerEmail = '';
  let chunkCount = 0;

  it('embeds an uploaded document in the background job, chunks and sentences, recording the model', async () => {
    // EMBEDDING_MODEL unset: the embedded model (the test server turns it off unless asked).
    server = await startTestServer({ dataDir, env: { EMBEDDING_MODEL: '', JOB_POLL_MS: '50', CHUNK_SIZE: '100' } });
    const owner = await server.user();
    ownerEmail = owner.email;
    personalityId = await createPersonality(owner, 'Marta');
    const docId = await uploadOne(owner, personalityId, { name: 'memoir.txt', data: TEXT });
    const doc = await waitForDocument(owner, personalityId, docId, ['ready'], 60_000);
    chunkCount = doc.chunkCount;
    expect(chunkCount).toBe(3);
    expect(doc.embeddedCount).toBe(chunkCount);
    expect(await embeddingRows(server)).toEqual([{ model: EMBEDDED_MODEL_ID, n: 3, sentences: 3 }]);
  }, 120_000);

  it('after a restart, answers from the stored vectors without embedding the document again', async () => {
    server = await startTestServer({ dataDir, env: { EMBEDDING_MODEL: '', JOB_POLL_MS: '50', CHUNK_SIZE: '100' } });
    const owner = server.client();
    expect((await owner.signIn(ownerEmail, 'secret-pass')).status).toBe(200);
    expect(await embeddingRows(server)).toEqual([{ model: EMBEDDED_MODEL_ID, n: 3, sentences: 3 }]);
    const res = await chat(owner, personalityId, { message: QUESTION });
    expect(res.status).toBe(200);
    // The answer holds none of the question's words: only its stored vectors can have found it.
    const refs = eventOf(res, 'start')!.documentReferences;
    expect(refs.map((r: { chunkIndex: number }) => r.chunkIndex)).toContain(0);
    expect(res.text).toContain('Marta');
    expect(res.text).toContain('(from memoir.txt (chunk');
    // Nothing was queued for embedding: the vectors were already there.
    const jobs = (await server.database.db.execute(sql`select count(*)::int as n from jobs where payload->>'mode' = 'embed'`)) as unknown as {
      rows: { n: number }[];
    };
    expect(Number(jobs.rows[0]!.n)).toBe(0);
  }, 120_000);

  it('a configured EMBEDDING_MODEL replaces the embedded one: its vectors are re-embedded by the new model', async () => {
    fake = await startFakeOpenAI({ dimensions: 64 });
    server = await startTestServer({
      dataDir,
      env: { EMBEDDING_MODEL: 'fake-embedding', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', JOB_POLL_MS: '50', CHUNK_SIZE: '100' },
    });
    const s = server;
    await waitFor('re-embedding', async () => {
      const rows = await embeddingRows(s);
      return rows.length === 1 && rows[0]!.model === 'fake-embedding' ? rows : undefined;
    });
    expect(await embeddingRows(s)).toEqual([{ model: 'fake-embedding', n: 3, sentences: 3 }]);
    const embedded = fake.requests.flatMap((r) => r.body.input as string[]);
    expect(embedded).toContain(ANSWER);
    const owner = s.client();
    expect((await owner.signIn(ownerEmail, 'secret-pass')).status).toBe(200);
    const docs = (await owner.get(`/api/personalities/${personalityId}/documents`)).body.documents;
    await waitForDocument(owner, personalityId, docs[0].id, ['ready']);
    // Chat now embeds the question with the configured model.
    const before = fake.requests.length;
    const res = await chat(owner, personalityId, { message: 'Tell me about the coldest winter.' });
    expect(res.status).toBe(200);
    expect(fake.requests.length).toBeGreaterThan(before);
    expect(res.text).toContain('1962');
  }, 120_000);
});
