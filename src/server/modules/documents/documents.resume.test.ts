// A restart in the middle of a long document's embedding keeps what was done: the job resumes with
// the same chunks and only embeds those still without a vector (a 10,000-chunk document takes most
// of an hour with the embedded model; starting over at every restart would never finish it). The
// owner's Rechunk, and changed chunk settings, still make the chunks again.
// (A crash, where the lease runs out instead: documents.restart.test.ts.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rows, startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { chunkText } from './chunker';
import { normalizeExtractedText } from './text-normalize';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';

let fake: FakeOpenAI;
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  // Each embeddings request takes a moment, so a test can stop the server mid-document.
  fake = await startFakeOpenAI({ dimensions: 16, delayMs: 30 });
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  fake.set({ hold: false });
});
afterAll(async () => {
  await fake?.close();
});

const settings = {
  LLM_BASE_URL: '',
  EMBEDDING_MODEL: 'fake-embedding',
  EMBEDDING_BATCH_SIZE: '2',
  JOB_POLL_MS: '30',
  CHUNK_SIZE: '200',
  CHUNK_OVERLAP: '0',
};

/** A server on `dataDir` (kept across restarts), closed after the test unless closed before. */
async function serverOn(dataDir: string, env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ dataDir, env: { ...settings, LLM_BASE_URL: fake.url, ...env } });
  let closed = false;
  const close = server.close.bind(server);
  server.close = async () => {
    if (closed) return;
    closed = true;
    await close();
  };
  cleanups.push(() => server.close());
  return server;
}

function scratchDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-resume-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Two sentences per paragraph, each naming its paragraph: every chunk (one paragraph, under 200
// characters) is a text of its own at the fake, so what was sent again can be told apart.
const paragraph = (i: number) =>
  `Paragraph ${i} tells of the loom in the valley and the mill by the river. The engine of paragraph ${i} read its cards all through that winter.`;
const LONG_TEXT = Array.from({ length: 30 }, (_, i) => paragraph(i)).join('\n\n');

interface ChunkRow {
  id: string;
  chunk_index: number;
  content: string;
  embedded: boolean;
}

async function chunksOf(server: TestServer, documentId: string): Promise<ChunkRow[]> {
  return rows<ChunkRow>(
    server,
    sql`select c.id, c.chunk_index, c.content, exists (select 1 from personality_chunk_embeddings e where e.chunk_id = c.id) as embedded
      from personality_document_chunks c where c.document_id = ${documentId} order by c.chunk_index`,
  );
}

/** Every text the fake was asked to embed since request `from`. */
function textsSentSince(from: number): string[] {
  return fake.requests.slice(from).flatMap((r) => (Array.isArray(r.body.input) ? r.body.input : [String(r.body.input)]));
}

/**
 * Uploads the long document and stops the server cleanly (as SIGTERM does) while an embeddings
 * request is in flight, after some chunks have their vectors. Returns the chunks as they were.
 */
async function uploadAndStopMidway(server: TestServer): Promise<{ owner: TestClient; pid: string; docId: string; before: ChunkRow[] }> {
  const owner = await server.user('resume@example.com');
  const pid = await createPersonality(owner, 'Weaver');
  const docId = await uploadOne(owner, pid, { name: 'looms.txt', data: LONG_TEXT });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [row] = await rows<{ n: number }>(server, sql`select embedded_count as n from personality_documents where id = ${docId}`);
    if ((row?.n ?? 0) >= 6) break;
    if (Date.now() > deadline) throw new Error('the document never started embedding');
    await new Promise((r) => setTimeout(r, 10));
  }
  // The next batch is held at the fake: once it has arrived, the batches before it are stored.
  const sent = fake.requests.length;
  fake.set({ hold: true });
  while (fake.requests.length === sent) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
  const before = await chunksOf(server, docId);
  await server.close();
  return { owner, pid, docId, before };
}

describe('a document resumed after a restart', () => {
  it('keeps its chunks and vectors after a clean stop, and only embeds the chunks still without one', async () => {
    const dataDir = scratchDir();
    const first = await serverOn(dataDir);
    const { pid, docId, before } = await uploadAndStopMidway(first);
    expect(before.length).toBe(30);
    const embeddedBefore = before.filter((c) => c.embedded);
    expect(embeddedBefore.length).toBeGreaterThanOrEqual(6);
    expect(embeddedBefore.length).toBeLessThan(before.length);
    fake.set({ hold: false });

    const sentBefore = fake.requests.length;
    const second = await serverOn(dataDir);
    const owner = second.client();
    expect((await owner.signIn('resume@example.com', 'secret-pass')).status).toBe(200);
    const done = await waitForDocument(owner, pid, docId, ['ready', 'failed'], 30_000);
    expect(done.status).toBe('ready');

    // The same chunks (same ids), each now with one vector.
    const after = await chunksOf(second, docId);
    expect(after.map((c) => [c.id, c.chunk_index])).toEqual(before.map((c) => [c.id, c.chunk_index]));
    expect(after.every((c) => c.embedded)).toBe(true);
    expect(done.embeddedCount).toBe(30);
    // Only the chunks without a vector were sent to the embedding model again.
    const sentAgain = new Set(textsSentSince(sentBefore));
    const chunksSentAgain = after.filter((c) => sentAgain.has(c.content)).map((c) => c.chunk_index);
    expect(chunksSentAgain).toEqual(before.filter((c) => !c.embedded).map((c) => c.chunk_index));
  });

  it("the owner's Rechunk while the resumed job waits in the queue wins: the chunks are made again", async () => {
    const dataDir = scratchDir();
    const first = await serverOn(dataDir);
    const { pid, docId, before } = await uploadAndStopMidway(first);
    fake.set({ hold: false });

    // A server that runs no jobs: the document's job stays queued while the owner asks.
    const idle = await serverOn(dataDir, { JOB_CONCURRENCY: '0' });
    const owner = idle.client();
    expect((await owner.signIn('resume@example.com', 'secret-pass')).status).toBe(200);
    const rechunk = await owner.post(`/api/personalities/${pid}/documents/${docId}/rechunk`);
    expect(rechunk.status).toBe(202);
    const jobs = await rows<{ payload: { mode: string } }>(idle, sql`select payload from jobs where document_id = ${docId}`);
    expect(jobs.map((j) => j.payload.mode)).toEqual(['rechunk']);
    await idle.close();

    const runner = await serverOn(dataDir);
    const again = runner.client();
    expect((await again.signIn('resume@example.com', 'secret-pass')).status).toBe(200);
    const done = await waitForDocument(again, pid, docId, ['ready', 'failed'], 30_000);
    expect(done.status).toBe('ready');
    const after = await chunksOf(runner, docId);
    expect(after.map((c) => c.content)).toEqual(before.map((c) => c.content));
    expect(after.some((c) => before.some((b) => b.id === c.id))).toBe(false);
    expect(after.every((c) => c.embedded)).toBe(true);
  });

  it('is chunked again when the chunk settings changed before it resumed (no chunks of the old size kept)', async () => {
    const dataDir = scratchDir();
    const first = await serverOn(dataDir);
    const { pid, docId, before } = await uploadAndStopMidway(first);
    fake.set({ hold: false });

    // Two paragraphs to a chunk now.
    const second = await serverOn(dataDir, { CHUNK_SIZE: '300' });
    const owner = second.client();
    expect((await owner.signIn('resume@example.com', 'secret-pass')).status).toBe(200);
    const done = await waitForDocument(owner, pid, docId, ['ready', 'failed'], 30_000);
    expect(done.status).toBe('ready');
    const after = await chunksOf(second, docId);
    const expected = chunkText(normalizeExtractedText(LONG_TEXT), { size: 300, overlap: 0 });
    expect(expected.length).toBe(15);
    expect(after.map((c) => c.content)).toEqual(expected);
    expect(after.some((c) => before.some((b) => b.id === c.id))).toBe(false);
    expect(after.every((c) => c.embedded)).toBe(true);
  });
});
