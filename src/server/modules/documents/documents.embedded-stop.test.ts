// A server stopping (SIGTERM) while the embedded model embeds a document's batch does not wait for
// the batch (minutes under load, past a container's 20 s grace period): the batch's request ends
// on the stop, its late vectors are never written, and the job goes back to the queue with no
// lease at once. The next start embeds only the chunks still without a vector, each once.
// Through real HTTP on a persistent PGlite folder, with the real embedded model.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { rows, startTestServer, type TestServer } from '../../test-support/test-server';
import { sharedEmbeddedEmbeddings } from '../../ai/embedded/embedded-embeddings';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-embedded-stop-'));
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close().catch(() => {});
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// EMBEDDING_MODEL unset: the embedded model. One paragraph to a chunk, 16 chunks to a batch: a
// batch is 16 chunks and their 48 sentences, several passes of the model.
const env = { EMBEDDING_MODEL: '', JOB_POLL_MS: '50', CHUNK_SIZE: '300', CHUNK_OVERLAP: '0', EMBEDDING_BATCH_SIZE: '16' };
const paragraph = (i: number) =>
  `Paragraph ${i} tells of the old mill by the river and the miller who kept it. The wheel of paragraph ${i} turned all through that long winter. Nobody in paragraph ${i} ever forgot the sound of it.`;
const TEXT = Array.from({ length: 40 }, (_, i) => paragraph(i)).join('\n\n');

/** Every request the document's job made of the embedded model, and how it ended. */
interface Call {
  texts: string[];
  outcome: 'pending' | 'resolved' | string;
}

describe.skipIf(process.env.TEST_DATABASE_URL)('stopping the server while the embedded model embeds a batch', () => {
  it('hands the job back at once, writes nothing of the batch in flight, and a restart embeds each chunk once', async () => {
    const model = sharedEmbeddedEmbeddings();
    const original = model.embed;
    const calls: Call[] = [];
    let stopping: Promise<void> | undefined;
    let first: TestServer | undefined;
    // Watches the model's requests; the second batch's request starts the stop, mid-batch.
    model.embed = (texts, signal) => {
      const call: Call = { texts, outcome: 'pending' };
      const isBatch = texts.some((t) => t.startsWith('Paragraph '));
      if (isBatch) calls.push(call);
      const result = original(texts, signal);
      result.then(
        () => (call.outcome = 'resolved'),
        (err: Error) => (call.outcome = err.message),
      );
      if (isBatch && calls.length === 2 && first) stopping = first.close();
      return result;
    };
    try {
      first = await startTestServer({ dataDir, env });
      servers.push(first);
      const owner = await first.user('miller@example.com');
      const pid = await createPersonality(owner, 'Miller');
      const docId = await uploadOne(owner, pid, { name: 'mill.txt', data: TEXT });
      const deadline = Date.now() + 90_000;
      while (!stopping) {
        if (Date.now() > deadline) throw new Error(`the second batch never started: ${JSON.stringify(calls.map((c) => c.outcome))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await stopping;

      // The batch in flight was abandoned on the stop, not waited for.
      expect(calls.map((c) => c.outcome)).toEqual(['resolved', 'server stopping']);
      // A chunk's text is its whole paragraph; the rest of a request is the chunks' sentences.
      const chunkOf = (texts: string[]) => texts.filter((t) => /^Paragraph \d+ tells.*Nobody/.test(t));
      const firstBatch = chunkOf(calls[0]!.texts);
      expect(firstBatch).toHaveLength(16);

      // A server that runs no jobs shows what the stop left behind.
      const idle = await startTestServer({ dataDir, env: { ...env, JOB_CONCURRENCY: '0' } });
      servers.push(idle);
      const jobs = await rows<{ status: string; locked_by: string | null; locked_until: string | null; mode: string }>(
        idle,
        sql`select status, locked_by, locked_until, payload->>'mode' as mode from jobs where document_id = ${docId}`,
      );
      expect(jobs).toEqual([{ status: 'queued', locked_by: null, locked_until: null, mode: 'embed' }]);
      const embedded = await rows<{ content: string }>(
        idle,
        sql`select c.content from personality_document_chunks c join personality_chunk_embeddings e on e.chunk_id = c.id where c.document_id = ${docId}`,
      );
      // Only the first batch's vectors: the abandoned batch's late answer was not written.
      expect(embedded.map((r) => r.content).sort()).toEqual([...firstBatch].sort());
      await idle.close();

      const second = await startTestServer({ dataDir, env });
      servers.push(second);
      const again = second.client();
      expect((await again.signIn('miller@example.com', 'secret-pass')).status).toBe(200);
      const done = await waitForDocument(again, pid, docId, ['ready', 'failed'], 90_000);
      expect(done.status).toBe('ready');
      expect(done.embeddedCount).toBe(40);
      const chunks = await rows<{ content: string; vectors: number }>(
        second,
        sql`select c.content, (select count(*)::int from personality_chunk_embeddings e where e.chunk_id = c.id) as vectors
          from personality_document_chunks c where c.document_id = ${docId} order by c.chunk_index`,
      );
      expect(chunks).toHaveLength(40);
      expect(chunks.every((c) => Number(c.vectors) === 1)).toBe(true);
      // Each chunk was embedded by exactly one request that finished: none twice, none lost.
      const finished = calls.filter((c) => c.outcome === 'resolved').flatMap((c) => chunkOf(c.texts));
      expect([...finished].sort()).toEqual(chunks.map((c) => c.content).sort());
    } finally {
      model.embed = original;
    }
  }, 240_000);
});
