// Documents that were ready before there were vectors (an upgrade from a version without them, or
// a change of EMBEDDING_MODEL) are embedded in the background at start-up. They are searchable by
// their words all along, so they stay "ready" in the list and the knowledge summary while their
// vectors come in, and a background embedding that fails for good leaves them ready. The owner's
// Process while such a job waits replaces it and shows processing as usual.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rows, startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';

let fake: FakeOpenAI;
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  fake = await startFakeOpenAI({ dimensions: 16 });
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  fake.set({ hold: false, failStatus: 0 });
});
afterAll(async () => {
  await fake?.close();
});

const paragraph = (i: number) => `Paragraph ${i} tells of the loom in the valley and the mill by the river, and of the winter of ${1900 + i}.`;
const TEXT = Array.from({ length: 6 }, (_, i) => paragraph(i)).join('\n\n');

async function serverOn(dataDir: string, env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer({ dataDir, env: { JOB_POLL_MS: '30', JOB_CONCURRENCY: '1', CHUNK_SIZE: '200', CHUNK_OVERLAP: '0', ...env } });
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

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Two documents made ready by a server without vectors (EMBEDDING_MODEL none), then a server with
 * an embedding model on the same data, which queues both for embedding at start-up. `before` runs
 * between the two servers (e.g. to hold or fail the fake).
 */
async function upgradedServer(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-background-embed-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const old = await serverOn(dataDir, { EMBEDDING_MODEL: 'none' });
  const first = await old.user('upgrade@example.com');
  const pid = await createPersonality(first, 'Weaver');
  const ids: string[] = [];
  for (const name of ['looms.txt', 'mills.txt']) {
    const id = await uploadOne(first, pid, { name, data: TEXT });
    const doc = await waitForDocument(first, pid, id);
    expect(doc).toMatchObject({ status: 'ready', embeddedCount: 0 });
    ids.push(id);
  }
  await old.close();
  const server = await serverOn(dataDir, { LLM_BASE_URL: fake.url, EMBEDDING_MODEL: 'fake-embedding', EMBEDDING_BATCH_SIZE: '2', ...env });
  const owner = server.client();
  expect((await owner.signIn('upgrade@example.com', 'secret-pass')).status).toBe(200);
  return { server, owner, pid, ids };
}

async function listed(owner: TestClient, pid: string) {
  const res = await owner.get(`/api/personalities/${pid}/documents`);
  expect(res.status).toBe(200);
  return res.body.documents as { id: string; status: string; progress: number; chunkCount: number; embeddedCount: number; error: string | null }[];
}

async function jobsOf(server: TestServer) {
  return rows<{ document_id: string; status: string; payload: { mode: string } }>(server, sql`select document_id, status, payload from jobs where kind = 'document.process' order by created_at`);
}

describe('documents embedded in the background', () => {
  it('stay ready (status and progress) while their job waits and runs, then have their vectors', async () => {
    fake.set({ hold: true });
    const { server, owner, pid, ids } = await upgradedServer();
    // One job runs (its first batch held at the fake), the other waits behind it.
    await until('the first batch to reach the embedding model', async () => fake.requests.length > 0);
    await until('one job running and one queued', async () => {
      const states = (await jobsOf(server)).map((j) => j.status).sort();
      return states.join() === 'queued,running';
    });
    for (const doc of await listed(owner, pid)) {
      expect(doc).toMatchObject({ status: 'ready', progress: 100, error: null });
    }
    const knowledge = await owner.get(`/api/personalities/${pid}/knowledge`);
    expect(knowledge.status).toBe(200);
    expect(knowledge.body).toMatchObject({ documents: 2, processing: 0, ready: true });
    expect(knowledge.body.items.map((i: { status: string; progress: number }) => [i.status, i.progress])).toEqual([
      ['ready', 100],
      ['ready', 100],
    ]);

    fake.set({ hold: false });
    await until('both jobs to finish', async () => (await jobsOf(server)).length === 0);
    const after = await listed(owner, pid);
    expect(after.map((d) => d.id).sort()).toEqual([...ids].sort());
    for (const doc of after) {
      expect(doc.chunkCount).toBeGreaterThan(1);
      expect(doc).toMatchObject({ status: 'ready', progress: 100, embeddedCount: doc.chunkCount });
    }
    const [vectors] = await rows<{ n: number }>(server, sql`select count(*)::int as n from personality_chunk_embeddings where model = 'fake-embedding'`);
    expect(Number(vectors!.n)).toBe(after.reduce((sum, d) => sum + d.chunkCount, 0));
  });

  it('a background embedding that fails for good leaves the documents ready, with a warning logged', async () => {
    fake.set({ failStatus: 500 });
    const { server, owner, pid } = await upgradedServer({ JOB_MAX_ATTEMPTS: '2', JOB_RETRY_BASE_MS: '10' });
    await until('both jobs to fail for good', async () => {
      const jobs = await jobsOf(server);
      return jobs.length === 2 && jobs.every((j) => j.status === 'failed');
    });
    for (const doc of await listed(owner, pid)) {
      expect(doc).toMatchObject({ status: 'ready', progress: 100, error: null, embeddedCount: 0 });
    }
    expect((await owner.get(`/api/personalities/${pid}/knowledge`)).body).toMatchObject({ processing: 0, ready: true });
    expect(server.logs.filter((line) => / WARN background embedding of a document failed/.test(line))).toHaveLength(2);
  });

  it("the owner's Process while a background job waits replaces it and shows processing", async () => {
    fake.set({ hold: true });
    const { server, owner, pid } = await upgradedServer();
    await until('one job running and one queued', async () => {
      const states = (await jobsOf(server)).map((j) => j.status).sort();
      return states.join() === 'queued,running';
    });
    const waiting = (await jobsOf(server)).find((j) => j.status === 'queued')!;
    const res = await owner.post(`/api/personalities/${pid}/documents/${waiting.document_id}/process`);
    expect(res.status).toBe(202);
    expect(res.body.document).toMatchObject({ status: 'processing', progress: 0 });
    const jobs = await jobsOf(server);
    expect(jobs.find((j) => j.document_id === waiting.document_id)!.payload.mode).toBe('process');
    const byId = new Map((await listed(owner, pid)).map((d) => [d.id, d]));
    expect(byId.get(waiting.document_id)!.status).toBe('processing');
    // The other document, still embedding in the background, stays ready.
    const running = jobs.find((j) => j.status === 'running')!;
    expect(byId.get(running.document_id)).toMatchObject({ status: 'ready', progress: 100 });

    fake.set({ hold: false });
    const done = await waitForDocument(owner, pid, waiting.document_id, ['ready', 'failed']);
    expect(done).toMatchObject({ status: 'ready', progress: 100, embeddedCount: done.chunkCount });
  });
});
