// Two real Kindred processes on one PostgreSQL and one S3-compatible server (s3rver), behind the
// round-robin proxy, behaving as one: requests alternate between them (or are pinned with
// X-Kindred-Backend to say "on A" and "on B"). Runs only when TEST_DATABASE_URL is set (CI starts
// Debian's PostgreSQL); `npm run test:multi`. The live document stream's own re-read is set to
// 10 minutes here, so a change made on A can reach a stream on B only through LISTEN/NOTIFY.
import pg from 'pg';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/lib/multi-process-cluster';
import { createClient, createScratchDatabase, type TestClient } from '../../src/server/test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-fake';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fakes/elevenlabs-fake';
import { toneWav16 } from '../../src/server/modules/voice/voice.test-support';

const adminUrl = process.env.TEST_DATABASE_URL;
const A = { 'x-kindred-backend': '0' };
const B = { 'x-kindred-backend': '1' };

let cluster: Cluster;
let openai: FakeOpenAI;
let eleven: FakeElevenLabs;
let databaseUrl: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  if (!adminUrl) return;
  ({ databaseUrl, drop } = await createScratchDatabase(adminUrl));
  openai = await startFakeOpenAI();
  eleven = await startFakeElevenLabs();
  cluster = await startCluster({
    databaseUrl,
    env: {
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: 'sk-fake',
      ELEVENLABS_BASE_URL: eleven.url,
      ELEVENLABS_API_KEY: 'fake-eleven-key',
      VOICE_DAILY_CREDIT_LIMIT: '100',
      RATE_LIMIT_SPEECH_PER_MINUTE: '1000',
      DOCUMENT_STREAM_POLL_MS: '600000',
      RATE_LIMIT_FEEDBACK_PER_HOUR: '5',
      JOB_LEASE_SECONDS: '2',
      JOB_POLL_MS: '300',
      JOB_RETRY_BASE_MS: '100',
    },
  });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await openai?.close();
  await eleven?.close();
  await drop?.();
}, 60_000);

async function userOn(headers: Record<string, string>): Promise<TestClient & { id: string; email: string }> {
  const c = createClient(cluster.url);
  const email = `mp-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const up = await c.request('POST', '/api/auth/sign-up/email', { email, password: 'secret-pass', name: '' }, headers);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const inn = await c.request('POST', '/api/auth/sign-in/email', { email, password: 'secret-pass' }, headers);
  expect(inn.status).toBe(200);
  return Object.assign(c, { id: up.body.user.id as string, email });
}

async function upload(c: TestClient, personalityId: string, name: string, data: Uint8Array | string, headers: Record<string, string>, route = 'documents') {
  const form = new FormData();
  form.append(route === 'documents' ? 'files' : 'file', new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), name);
  const res = await c.raw(`/api/personalities/${personalityId}/${route}`, { method: 'POST', body: form, headers });
  return { status: res.status, body: await res.json() };
}

/** Reads an SSE stream until `done(event data)` says so; returns the backend that served it. */
async function watchStream(c: TestClient, path: string, headers: Record<string, string>, done: (data: any) => boolean, start: () => Promise<void>) {
  const controller = new AbortController();
  const res = await c.raw(path, { headers, signal: controller.signal });
  expect(res.status).toBe(200);
  const backend = res.headers.get('x-kindred-backend');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let started = false;
  try {
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) throw new Error('stream ended');
      buffer += decoder.decode(value, { stream: true });
      let at: number;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = event.split('\n').find((l) => l.startsWith('data:'))?.slice(5);
        if (!data) continue;
        if (!started) {
          started = true; // the first event is the list as it was on connect
          await start();
          continue;
        }
        if (done(JSON.parse(data))) return backend;
      }
    }
  } finally {
    controller.abort();
  }
}

/** The pid of the process whose lease the document's running job holds. */
async function jobHolder(documentId: string): Promise<number> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query(`select locked_by from jobs where document_id = $1 and status = 'running'`, [documentId]);
    expect(rows, 'one running job for the document').toHaveLength(1);
    return Number(String(rows[0].locked_by).split('/')[1]);
  } finally {
    await c.end();
  }
}

describe.skipIf(!adminUrl)('two app processes behind a round-robin proxy', () => {
  it('alternates requests between the processes, and applied the migrations exactly once', async () => {
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await fetch(`${cluster.url}/api/health`)).headers.get('x-kindred-backend'));
    expect(seen).toEqual(['0', '1', '0', '1']);
    const journal = JSON.parse(fs.readFileSync('src/server/db/migrations/meta/_journal.json', 'utf8')) as { entries: unknown[] };
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const applied = await c.query('select count(*)::int as n, count(distinct hash)::int as d from drizzle.__drizzle_migrations');
    await c.end();
    expect(applied.rows[0]).toEqual({ n: journal.entries.length, d: journal.entries.length });
  });

  it('signs up on A and acts on B; shares on B and the recipient sees it on A', async () => {
    const owner = await userOn(A);
    const me = await owner.request('GET', '/api/me', undefined, B);
    expect(me.body.user.email).toBe(owner.email);
    const created = await owner.request('POST', '/api/personalities', { name: 'Across' }, B);
    expect(created.status).toBe(201);
    const id = created.body.personality.id as string;
    expect((await owner.request('GET', `/api/personalities/${id}`, undefined, A)).status).toBe(200);

    const friend = await userOn(B);
    expect((await friend.request('GET', `/api/personalities/${id}`, undefined, A)).status).toBe(404);
    const share = await owner.request('POST', `/api/personalities/${id}/shares`, { email: friend.email }, B);
    expect(share.status).toBe(201);
    const seen = await friend.request('GET', `/api/personalities/${id}`, undefined, A);
    expect(seen.status).toBe(200);
    expect(seen.body.personality.name).toBe('Across');
  });

  it('an upload on A becomes Ready in an event stream connected to B (LISTEN/NOTIFY)', async () => {
    const owner = await userOn(A);
    const id = (await owner.request('POST', '/api/personalities', { name: 'Live' }, A)).body.personality.id as string;
    let documentId = '';
    const backend = await watchStream(
      owner,
      `/api/personalities/${id}/documents/events`,
      B,
      (data) => data.documents.some((d: { id: string; status: string }) => d.id === documentId && d.status === 'ready'),
      async () => {
        const res = await upload(owner, id, 'notes.txt', 'The harbour master kept a blue ledger of tides.', A);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        documentId = res.body.results[0].document.id;
      },
    );
    expect(backend).toBe('1');
  });

  it('a sign-out on A is refused on B as soon as it has answered, even where B had the session cached', async () => {
    const c = await userOn(A);
    for (let round = 0; round < 10; round++) {
      const inn = await c.request('POST', '/api/auth/sign-in/email', { email: c.email, password: 'secret-pass' }, A);
      expect(inn.status).toBe(200);
      expect((await c.request('GET', '/api/me', undefined, B)).body.user?.id).toBe(c.id);
      const signedIn = new Map(c.cookies);
      expect((await c.request('POST', '/api/auth/sign-out', {}, A)).status).toBe(200);
      for (const [k, v] of signedIn) c.cookies.set(k, v);
      expect((await c.request('GET', '/api/me', undefined, B)).body.user ?? null).toBeNull();
    }
  });

  it("a document made private on A leaves the starters B had cached", async () => {
    const owner = await userOn(A);
    const id = (await owner.request('POST', '/api/personalities', { name: 'Starters' }, A)).body.personality.id as string;
    const res = await upload(owner, id, 'harbour_ledger.txt', 'The harbour master kept a blue ledger of tides.', A);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const documentId = res.body.results[0].document.id as string;
    const naming = async () =>
      ((await owner.request('GET', `/api/personalities/${id}/starters`, undefined, B)).body.starters as string[]).some((s) => s.includes('harbour ledger'));
    expect(await naming()).toBe(true);
    expect((await owner.request('PATCH', `/api/personalities/${id}/documents/${documentId}`, { isPrivate: true }, A)).status).toBe(200);
    // The notice travels by LISTEN/NOTIFY; B catches up with it before answering from its cache.
    expect(await naming()).toBe(false);
  });

  it('counts a rate limit across both processes', async () => {
    const c = await userOn(A);
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await c.request('POST', '/api/feedback', { feedback: `note ${i}` }, i % 2 === 0 ? A : B);
      statuses.push(res.status);
    }
    // RATE_LIMIT_FEEDBACK_PER_HOUR=5 for the whole site, not 5 per process.
    expect(statuses.filter((s) => s === 201 || s === 200)).toHaveLength(5);
    expect(statuses[5]).toBe(429);
  });

  it('counts the daily voice credits across both processes', async () => {
    const c = await userOn(B);
    const id = (await c.request('POST', '/api/personalities', { name: 'Credits', voiceProvider: 'elevenlabs' }, B)).body.personality.id as string;
    const speak = async (headers: Record<string, string>) => {
      const res = await c.raw(`/api/personalities/${id}/voice/speech`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(30) }) });
      await res.arrayBuffer();
      return res.status;
    };
    const sent = eleven.requests.length;
    // VOICE_DAILY_CREDIT_LIMIT=100 for the whole site: three 30-character sentences fit, a fourth does not, whichever process asks.
    expect([await speak(A), await speak(B), await speak(A), await speak(B), await speak(A)]).toEqual([200, 200, 200, 429, 429]);
    expect(eleven.requests.length - sent).toBe(3);
  });

  it('a document job of a process killed with SIGKILL is finished by the other one', async () => {
    const owner = await userOn(B);
    const id = (await owner.request('POST', '/api/personalities', { name: 'Survivor' }, B)).body.personality.id as string;
    const before = openai.transcriptions.length;
    // The provider holds the first piece's answer: the job is mid-way when its process dies.
    openai.setAudio({ transcript: 'Lessons from the lighthouse', transcribeFail: 'none', transcribeHoldFrom: before });
    // Queued on A, which wakes its own runner at once; B polls too and may win the claim, so the
    // process killed is whichever one the job's lease names (locked_by is host/pid/random).
    const res = await upload(owner, id, 'talk.wav', toneWav16(250, 8000), A, 'documents/audio');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const docId = res.body.document.id as string;
    await expect.poll(() => openai.transcriptions.length - before, { timeout: 20_000, interval: 100 }).toBeGreaterThan(0);
    const holder = await jobHolder(docId);
    const victim = cluster.apps.find((app) => app.child.pid === holder);
    expect(victim, `the job's lease names pid ${holder}, one of the app processes`).toBeDefined();
    victim!.kill();
    const survivor = victim!.index === 0 ? B : A;
    openai.setAudio({ transcribeHoldFrom: undefined });
    await expect
      .poll(
        async () => {
          const list = await owner.request('GET', `/api/personalities/${id}/documents`, undefined, survivor);
          return list.body.documents.find((d: { id: string }) => d.id === docId)?.status;
        },
        { timeout: 60_000, interval: 300 },
      )
      .toBe('ready');
    // Three pieces, and the one the dead process was working on was asked for again: more than three calls.
    expect(openai.transcriptions.length - before).toBeGreaterThan(3);
  });
});
