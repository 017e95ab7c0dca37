// One person's long document does not hold everyone else's up: its embedding steps aside for
// waiting jobs after a slice (JOB_SLICE_MS; 0 here: at every batch) and carries on behind them,
// with its progress kept, every chunk embedded exactly once, and the attempt not counted.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';

let fake: FakeOpenAI;
let server: TestServer;
beforeAll(async () => {
  // Each embeddings request takes a while, so the long document is still embedding when the
  // small one arrives.
  fake = await startFakeOpenAI({ dimensions: 16, delayMs: 60 });
  server = await startTestServer({
    env: {
      LLM_BASE_URL: fake.url,
      EMBEDDING_MODEL: 'fake-embedding',
      EMBEDDING_BATCH_SIZE: '2',
      JOB_CONCURRENCY: '1',
      JOB_POLL_MS: '30',
      JOB_SLICE_MS: '0',
      CHUNK_SIZE: '200',
      CHUNK_OVERLAP: '0',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await server.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe('long documents and waiting jobs', () => {
  it("a small document uploaded while another person's long one embeds is ready first; the long one finishes whole", async () => {
    const alice = await server.user();
    const bob = await server.user();
    const alicePid = await createPersonality(alice, 'Long');
    const bobPid = await createPersonality(bob, 'Short');
    // ~60 chunks of ~200 characters: 30 batches of 2, each one embeddings request.
    const paragraph = (i: number) => `Paragraph ${i} tells of the loom, the engine and the long winter of that year in the valley. `.repeat(2);
    const long = Array.from({ length: 60 }, (_, i) => paragraph(i)).join('\n\n');
    const longId = await uploadOne(alice, alicePid, { name: 'long.txt', data: long });

    // Wait until the long one is embedding (some vectors in), then the small one arrives.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [row] = await rows<{ n: number }>(sql`select embedded_count as n from personality_documents where id = ${longId}`);
      if ((row?.n ?? 0) >= 4) break;
      if (Date.now() > deadline) throw new Error('the long document never started embedding');
      await new Promise((r) => setTimeout(r, 20));
    }
    const shortId = await uploadOne(bob, bobPid, { name: 'short.txt', data: 'Bob kept bees on the hill behind the mill.' });
    await waitForDocument(bob, bobPid, shortId, ['ready'], 30_000);

    // The small one did not wait for the whole long one.
    const [mid] = await rows<{ state: string; n: number; chunks: number }>(
      sql`select processing_state as state, embedded_count as n, chunk_count as chunks from personality_documents where id = ${longId}`,
    );
    expect(mid!.chunks).toBeGreaterThan(40);
    expect(mid!.state).toBe('processing');
    expect(mid!.n).toBeLessThan(mid!.chunks);

    // The long one finishes: every chunk has exactly one vector, and its job was never counted as
    // a failed attempt (a slice is not a failure).
    const done = await waitForDocument(alice, alicePid, longId, ['ready', 'failed'], 60_000);
    expect(done.status).toBe('ready');
    const [vectors] = await rows<{ n: number; distinct_chunks: number }>(
      sql`select count(*)::int as n, count(distinct chunk_id)::int as distinct_chunks from personality_chunk_embeddings where document_id = ${longId}`,
    );
    expect(vectors!.n).toBe(mid!.chunks);
    expect(vectors!.distinct_chunks).toBe(mid!.chunks);
    expect(server.logs.filter((l) => / (ERROR|WARN) /.test(l) && /job/.test(l))).toEqual([]);
  });
});
