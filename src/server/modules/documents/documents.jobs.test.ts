// Processing jobs: retries then gives up with the error visible, never two at once for one
// document, replaces chunks on a re-run, and leaves nothing behind when things are deleted.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { messages } from '../../../shared/messages';
import { claimJob, enqueueJob } from '../../jobs/jobs.repository';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';

let fake: FakeOpenAI;
let server: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ dimensions: 32 });
  server = await startTestServer({
    env: {
      LLM_BASE_URL: fake.url,
      EMBEDDING_MODEL: 'fake-embedding',
      EMBEDDING_BATCH_SIZE: '4',
      JOB_POLL_MS: '50',
      JOB_RETRY_BASE_MS: '20',
      JOB_MAX_ATTEMPTS: '3',
      CHUNK_SIZE: '200',
      CHUNK_OVERLAP: '40',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const text = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} talks about engines and looms in some detail.`).join(' ');

async function count(table: string, column: string, value: string): Promise<number> {
  const res = (await server.database.db.execute(sql`select count(*)::int as n from ${sql.raw(table)} where ${sql.raw(column)} = ${value}`)) as unknown as {
    rows: { n: number }[];
  };
  return res.rows[0]!.n;
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('document processing jobs', () => {
  it('retries a failing job a few times, then stops with the error visible to the owner', async (ctx) => {
    const owner = await server.user();
    const pid = await createPersonality(owner);
    fake.set({ failStatus: 500 });
    const before = fake.requests.length;
    try {
      const id = await uploadOne(owner, pid, { name: 'a.txt', data: text });
      const doc = await waitForDocument(owner, pid, id, ['failed']);
      expect(doc.error).toBe(messages.documents.embeddingFailed('the embedding service answered 500: The fake embedding model failed on purpose'));
      expect(fake.requests.length - before).toBe(3);
    } finally {
      fake.set({ failStatus: 0 });
    }
    // Processing again after the cause is fixed succeeds.
    const list = await owner.get(`/api/personalities/${pid}/documents`);
    const id = list.body.documents[0].id;
    const again = await owner.post(`/api/personalities/${pid}/documents/${id}/process`);
    expect(again.status).toBe(202);
    expect(again.body.document.status).toBe('processing');
    const ready = await waitForDocument(owner, pid, id);
    expect(ready.error).toBeNull();
    expect(ready.embeddedCount).toBe(ready.chunkCount);
  });

  it('fails a corrupt file at once (no retries), naming it', async () => {
    const owner = await server.user();
    const pid = await createPersonality(owner);
    const id = await uploadOne(owner, pid, { name: 'broken.pdf', data: '%PDF-1.4\nthis is not really a pdf' });
    const doc = await waitForDocument(owner, pid, id, ['failed']);
    expect(doc.error).toBe(messages.documents.extractFailed('broken.pdf'));
    expect(await count('jobs', 'document_id', id)).toBe(1); // kept as failed, attempt 1
    const job = (await server.database.db.execute(sql`select attempts, status from jobs where document_id = ${id}`)) as unknown as { rows: unknown[] };
    expect(job.rows[0]).toEqual({ attempts: 1, status: 'failed' });
  });

  it('never runs two jobs for one document at once', async (ctx) => {
    const owner = await server.user();
    const pid = await createPersonality(owner);
    fake.set({ hold: true });
    try {
      const id = await uploadOne(owner, pid, { name: 'b.txt', data: text });
      await waitFor(async () => (await count('personality_document_chunks', 'document_id', id)) > 0, 'chunks');
      const process = await owner.post(`/api/personalities/${pid}/documents/${id}/process`);
      expect(process.status).toBe(409);
      expect(process.body.error.message).toBe(messages.documents.alreadyProcessing);
      const rechunk = await owner.post(`/api/personalities/${pid}/documents/${id}/rechunk`);
      expect(rechunk.status).toBe(409);
      // The database itself refuses a second active job for the document...
      const db = server.database.db;
      const dup = await enqueueJob(db, { kind: 'document.process', documentId: id, dedupeKey: `document:${id}`, maxAttempts: 3 });
      expect(dup.created).toBe(false);
      // ...and a running job with a live lease cannot be claimed by another worker.
      expect(await claimJob(db, ['document.process'], 'another-worker', 30)).toBeUndefined();
      expect(await count('jobs', 'document_id', id)).toBe(1);
    } finally {
      fake.set({ hold: false });
    }
  });

  it('replaces the chunks on a re-run instead of adding to them', async () => {
    const owner = await server.user();
    const pid = await createPersonality(owner);
    const id = await uploadOne(owner, pid, { name: 'c.txt', data: text });
    const first = await waitForDocument(owner, pid, id);
    const firstIds = (await owner.get(`/api/personalities/${pid}/documents/${id}/chunks`)).body.chunks.map((c: { id: string }) => c.id);
    expect(firstIds.length).toBe(first.chunkCount);
    const rechunk = await owner.post(`/api/personalities/${pid}/documents/${id}/rechunk`);
    expect(rechunk.status).toBe(202);
    const second = await waitForDocument(owner, pid, id);
    expect(second.chunkCount).toBe(first.chunkCount);
    expect(await count('personality_document_chunks', 'document_id', id)).toBe(first.chunkCount);
    const secondIds = (await owner.get(`/api/personalities/${pid}/documents/${id}/chunks`)).body.chunks.map((c: { id: string }) => c.id);
    expect(secondIds.some((x: string) => firstIds.includes(x))).toBe(false);
    expect(await count('personality_chunk_embeddings', 'document_id', id)).toBe(first.chunkCount);
  });

  it('deleting a document removes its stored file, chunks and embeddings', async () => {
    const owner = await server.user();
    const pid = await createPersonality(owner);
    const id = await uploadOne(owner, pid, { name: 'd.txt', data: text });
    await waitForDocument(owner, pid, id);
    const dir = path.join(server.config.dataDir, 'blobs', owner.id, pid);
    expect(fs.readdirSync(dir)).toHaveLength(1);
    const del = await owner.delete(`/api/personalities/${pid}/documents/${id}`);
    expect(del.status).toBe(200);
    expect(fs.existsSync(dir)).toBe(false);
    expect(await count('personality_document_chunks', 'document_id', id)).toBe(0);
    expect(await count('personality_chunk_embeddings', 'document_id', id)).toBe(0);
    expect((await owner.get(`/api/personalities/${pid}/documents`)).body.documents).toEqual([]);
    expect((await owner.delete(`/api/personalities/${pid}/documents/${id}`)).status).toBe(404);
  });

  it('deleting a personality while its document is processing leaves nothing behind', async (ctx) => {
    const owner = await server.user();
    const pid = await createPersonality(owner);
    fake.set({ hold: true });
    const held = fake.requests.length;
    let id: string;
    try {
      id = await uploadOne(owner, pid, { name: 'e.txt', data: text });
      await uploadOne(owner, pid, { name: 'f.txt', data: text });
      await waitFor(() => fake.requests.length > held, 'an embedding request in flight');
      const del = await owner.delete(`/api/personalities/${pid}`);
      expect(del.status).toBe(200);
    } finally {
      fake.set({ hold: false });
    }
    // Let the interrupted job notice and the queue drain.
    await waitFor(async () => {
      const res = (await server.database.db.execute(sql`select count(*)::int as n from jobs where status in ('queued', 'running')`)) as unknown as { rows: { n: number }[] };
      return res.rows[0]!.n === 0;
    }, 'the queue to drain');
    await new Promise((r) => setTimeout(r, 300));
    for (const table of ['personality_documents', 'personality_document_chunks']) expect(await count(table, 'personality_id', pid)).toBe(0);
    expect(await count('jobs', 'document_id', id!)).toBe(0);
    expect(await count('personality_chunk_embeddings', 'personality_id', pid)).toBe(0);
    expect(fs.existsSync(path.join(server.config.dataDir, 'blobs', owner.id, pid))).toBe(false);
    expect(server.logs.filter((l) => / ERROR /.test(l))).toEqual([]);
  });
});
