// A job killed mid-way (the server process is SIGKILLed while embeddings are in flight) is picked
// up again by the next server on the same data once its lease expires, and finishes with exactly
// one set of chunks and embeddings: the chunks and vectors made before the crash are kept, only
// the rest is done again. (After a clean stop: documents.resume.test.ts.)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, createScratchDatabase, freePort, startTestServer, type TestServer } from '../../test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { startFakeModeration } from '../../../../tests/fakes/openai-moderation-fake';
import { chunkText } from './chunker';
import { normalizeExtractedText } from './text-normalize';
import { uploadOne, waitForDocument } from './documents.test-support';
import { toneWav16 } from '../voice/voice.test-support';
import { seedPgliteDataDir } from '../../test-support/pglite-image';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A database of its own on the PostgreSQL pass (dropped afterwards); none on PGlite. */
async function scratchDatabaseUrl(): Promise<string | undefined> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return undefined;
  const scratch = await createScratchDatabase(adminUrl);
  cleanups.push(() => scratch.drop());
  return scratch.databaseUrl;
}

function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Kindred is running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
}

const paragraph = (i: number) =>
  `Paragraph ${i} tells how the looms of Lyon read punched cards, and how the engine would read them too. ` +
  `It goes on about gears, columns of numbers, and the patience of mechanics in the workshop number ${i}.`;

/**
 * A server in a child process (so it can be killed with SIGKILL) on a data folder and, on the
 * PostgreSQL pass, a database of its own; `settings` are the test's providers and job timings.
 * It has an account signed in and a personality. `crash()` kills it; `restart()` starts a server
 * on the same folder, database and port and signs the same person in.
 */
async function crashableServer(label: string, settings: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kindred-restart-${label}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = await scratchDatabaseUrl();
  const port = await freePort();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    JOB_LEASE_SECONDS: '2',
    JOB_POLL_MS: '100',
    RATE_LIMIT_AUTH_PER_15MIN: '1000',
    LOG_LEVEL: 'info',
    ...settings,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  // On PGlite the folder starts as the test servers' migrated one: the crash is the point, not initdb.
  if (!databaseUrl) await seedPgliteDataDir(path.join(dataDir, 'pglite'));
  const { child, url } = await startChild(env);
  const email = `crash-${label}@example.com`;
  const client = createClient(url);
  expect((await client.signUp(email, 'secret-pass')).status).toBe(200);
  expect((await client.signIn(email, 'secret-pass')).status).toBe(200);
  const pid = (await client.post('/api/personalities', { name: 'Ada' })).body.personality.id as string;
  return {
    client,
    pid,
    async crash() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async restart() {
      const server: TestServer = await startTestServer({ dataDir, env });
      cleanups.push(() => server.close());
      const again = createClient(server.url);
      expect((await again.signIn(email, 'secret-pass')).status).toBe(200);
      return { server, again };
    },
  };
}

describe('a job interrupted by a crash', () => {
  it('a transcription resumes after restart at the pieces not yet done, never redoing a finished one', { timeout: 240_000 }, async () => {
    const fake: FakeOpenAI = await startFakeOpenAI();
    cleanups.push(() => fake.close());
    // Pieces 1 and 2 are answered; the third waits, unanswered, until the crash.
    fake.setAudio({ transcript: 'Piece', transcriptWithSeconds: true, transcribeHoldFrom: 2 });
    const { client, pid, crash, restart } = await crashableServer('audio', { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-fake', EMBEDDING_MODEL: 'none' });
    const form = new FormData();
    form.append('title', 'Long speech');
    form.append('file', new Blob([new Uint8Array(toneWav16(250, 8000))]), 'speech.wav');
    const up = await client.raw(`/api/personalities/${pid}/documents/audio`, { method: 'POST', body: form });
    expect(up.status).toBe(201);
    const docId = ((await up.json()) as { document: { id: string } }).document.id;

    const deadline = Date.now() + 60_000;
    while (fake.transcriptions.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fake.transcriptions.length).toBe(3);
    // Two pieces are transcribed at once, so the third can be asked for before the second's
    // checkpoint is stored. Progress is written after each checkpoint (1 + 59 x the share done):
    // 40 means both finished pieces are stored.
    await expect
      .poll(async () => ((await client.get(`/api/personalities/${pid}/documents`)).body.documents as { id: string; progress: number }[]).find((d) => d.id === docId)?.progress, {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(40);
    await crash();
    fake.setAudio({ transcribeHoldFrom: undefined });

    const { again } = await restart();
    const doc = await waitForDocument(again, pid, docId, ['ready', 'failed'], 60_000);
    expect(doc.status).toBe('ready');
    // One more call: the piece that was in flight. The two finished ones were not sent again.
    expect(fake.transcriptions.length).toBe(4);
    const text = (await again.get(`/api/personalities/${pid}/documents/${docId}/chunks`)).body.chunks.map((c: { content: string }) => c.content).join('\n');
    expect([...text.matchAll(/\[(\d+) s\]/g)].map((m) => m[1])).toEqual(['120', '120', '10']);
  });

  it('is finished after restart with no duplicate chunks or embeddings, keeping the chunks and vectors already made', { timeout: 240_000 }, async () => {
    // The crash lands while an embedding batch is in flight, after some chunks have their vectors
    // (on PostgreSQL without pgvector too: vectors are then float32 bytea). Each request takes a
    // moment, so the test can see the vectors come in.
    const fake: FakeOpenAI = await startFakeOpenAI({ dimensions: 64, delayMs: 100 });
    cleanups.push(() => fake.close());
    const { client, pid, crash, restart } = await crashableServer('embed', {
      LLM_BASE_URL: fake.url,
      EMBEDDING_MODEL: 'fake-embedding',
      EMBEDDING_BATCH_SIZE: '4',
      CHUNK_SIZE: '300', // one paragraph to a chunk
    });
    const text = Array.from({ length: 40 }, (_, i) => paragraph(i)).join('\n\n');
    const docId = await uploadOne(client, pid, { name: 'looms.txt', data: text });

    // Some chunks have vectors; the next batch is held at the fake (once it has arrived, the
    // batches before it are stored): kill.
    const listed = async () => (await client.get(`/api/personalities/${pid}/documents`)).body.documents[0];
    const deadline = Date.now() + 60_000;
    while ((await listed()).embeddedCount < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const sent = fake.requests.length;
    fake.set({ hold: true });
    while (fake.requests.length === sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    const during = await listed();
    expect(during.status).toBe('processing');
    const embeddedBefore = during.embeddedCount as number;
    expect(embeddedBefore).toBeGreaterThanOrEqual(8);
    const chunkIdsBefore = (await client.get(`/api/personalities/${pid}/documents/${docId}/chunks?limit=500`)).body.chunks.map((c: { id: string }) => c.id);
    expect(embeddedBefore).toBeLessThan(chunkIdsBefore.length);
    await crash();
    fake.set({ hold: false });
    const sentBeforeRestart = fake.requests.length;

    // A new server on the same data resumes the job once the dead one's lease has expired.
    const { server, again } = await restart();
    const doc = await waitForDocument(again, pid, docId, ['ready', 'failed'], 60_000);
    expect(doc.status).toBe('ready');

    const expected = chunkText(normalizeExtractedText(text), { size: server.config.documents.chunkSize, overlap: server.config.documents.chunkOverlap });
    expect(expected.length).toBeGreaterThan(8);
    expect(doc.chunkCount).toBe(expected.length);
    expect(doc.embeddedCount).toBe(expected.length);
    const db = server.database.db;
    const rows = (await db.execute(sql`select count(*)::int as n, count(distinct chunk_index)::int as distinct_n, min(chunk_index)::int as lo, max(chunk_index)::int as hi
      from personality_document_chunks where document_id = ${docId}`)) as unknown as { rows: { n: number; distinct_n: number; lo: number; hi: number }[] };
    expect(rows.rows[0]).toEqual({ n: expected.length, distinct_n: expected.length, lo: 0, hi: expected.length - 1 });
    const chunks = (await again.get(`/api/personalities/${pid}/documents/${docId}/chunks?limit=500`)).body.chunks as { id: string; content: string }[];
    expect(chunks.map((c) => c.content)).toEqual(expected);
    // The same chunks as before the crash, and only those without a vector (embedded in chunk
    // order) were sent to the embedding model again.
    expect(chunks.map((c) => c.id)).toEqual(chunkIdsBefore);
    const sentAgain = new Set(fake.requests.slice(sentBeforeRestart).flatMap((r) => r.body.input as string[]));
    const chunksSentAgain = chunks.flatMap((c, i) => (sentAgain.has(c.content) ? [i] : []));
    expect(chunksSentAgain).toEqual(expected.map((_, i) => i).slice(embeddedBefore));
    const emb = (await db.execute(sql`select count(*)::int as n from personality_chunk_embeddings where document_id = ${docId}`)) as unknown as { rows: { n: number }[] };
    expect(emb.rows[0]!.n).toBe(expected.length);
    const jobs = (await db.execute(sql`select count(*)::int as n from jobs where document_id = ${docId}`)) as unknown as { rows: { n: number }[] };
    expect(jobs.rows[0]!.n).toBe(0);
  });

  it('a crash after the chunks are stored but before they were moderated: the next server moderates them', { timeout: 240_000 }, async () => {
    // The moderation model answers slowly (within its time limit) and calls the text harmful.
    const moderation = await startFakeModeration();
    cleanups.push(() => moderation.close());
    const harmful = { harassment: 0.99 };
    const { client, pid, crash, restart } = await crashableServer('moderation', {
      OPENAI_BASE_URL: moderation.url,
      OPENAI_API_KEY: 'mod-key',
      MODERATION_MODEL: 'omni-moderation-latest',
      EMBEDDING_MODEL: 'none',
      JOB_POLL_MS: '50',
    });
    moderation.set({ scores: harmful, delayMs: 1200 });
    const docId = await uploadOne(client, pid, { name: 'looms.txt', data: paragraph(1) });

    // The chunks are committed (the moderation check has just begun): kill.
    const deadline = Date.now() + 30_000;
    while ((await client.get(`/api/personalities/${pid}/documents`)).body.documents[0].chunkCount === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await crash();
    moderation.set({ scores: harmful });

    const { again } = await restart();
    const doc = await waitForDocument(again, pid, docId, ['ready', 'failed'], 60_000);
    expect(doc).toMatchObject({ status: 'ready', isPrivate: true, heldForReview: true });
  });
});
