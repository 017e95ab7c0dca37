// A cloned voice whose removal at ElevenLabs fails for a reason that may pass (unreachable, a 503)
// is handed to a durable job that removes it once ElevenLabs answers again: the voice no longer
// stays in the operator's account using a paid voice slot. A 404 means it is already gone; a
// refused key is tried a bounded number of times and then given up with one warning.
// ElevenLabs is the loopback fake, reached through a line the test can cut for DELETEs only (a
// replacement clone must still be made while the old one cannot be removed).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { startFakeElevenLabs, type FakeElevenLabs } from '../../../../tests/fakes/elevenlabs-fake';
import { silentMp3 } from '../../../../tests/fakes/fake-audio';
import { createPersonality } from '../conversations/conversations.test-support';
import { postFileForm } from '../documents/documents.test-support';

/** How the line answers DELETE /v1/voices/{id}; everything else always reaches the fake. */
type DeleteAnswer = 'forward' | 'unreachable' | 'silent' | 'unavailable' | 'gone' | 'bad-key';

interface ElevenLabsLine {
  url: string;
  deleteAnswer: DeleteAnswer;
  /** Every DELETE that came down the line, with how it was answered. */
  deletes: { voiceId: string; answer: DeleteAnswer }[];
  /** DELETEs answered 'silent', still waiting. */
  unanswered: http.ServerResponse[];
  close(): Promise<void>;
}

const ANSWERS: Record<'unavailable' | 'gone' | 'bad-key', { status: number; detail: { status: string; message: string } }> = {
  unavailable: { status: 503, detail: { status: 'service_unavailable', message: 'The service is temporarily unavailable.' } },
  gone: { status: 404, detail: { status: 'voice_not_found', message: 'A voice with this voice_id was not found.' } },
  'bad-key': { status: 401, detail: { status: 'invalid_api_key', message: 'Invalid API key.' } },
};

async function startElevenLabsLine(fakeUrl: string): Promise<ElevenLabsLine> {
  const target = new URL(fakeUrl);
  const server = http.createServer((req, res) => {
    const voice = req.method === 'DELETE' ? /^\/v1\/voices\/([^/?]+)$/.exec(req.url ?? '') : null;
    if (voice) {
      const answer = line.deleteAnswer;
      line.deletes.push({ voiceId: decodeURIComponent(voice[1]!), answer });
      if (answer === 'unreachable') return void req.socket.destroy();
      if (answer === 'silent') return void line.unanswered.push(res); // accepted, never answered
      if (answer !== 'forward') {
        const { status, detail } = ANSWERS[answer];
        return void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail }));
      }
    }
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const line: ElevenLabsLine = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deleteAnswer: 'forward',
    deletes: [],
    unanswered: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return line;
}

interface Setup {
  server: TestServer;
  fake: FakeElevenLabs;
  line: ElevenLabsLine;
  close(): Promise<void>;
}

async function startWithLine(env: Record<string, string>): Promise<Setup> {
  const fake = await startFakeElevenLabs();
  const line = await startElevenLabsLine(fake.url);
  const server = await startTestServer({ env: { ELEVENLABS_BASE_URL: line.url, ELEVENLABS_API_KEY: 'fake-elevenlabs-key', JOB_POLL_MS: '50', ...env } });
  return {
    server,
    fake,
    line,
    async close() {
      await server.close();
      await line.close();
      await fake.close();
    },
  };
}

async function cloneVoice(client: TestClient, personalityId: string): Promise<string> {
  const res = await postFileForm(client, `/api/personalities/${personalityId}/voice/clone`, 'sample', { name: 'voice.mp3', data: silentMp3(5) }, { consent: 'true' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.personality.customVoiceId as string;
}

interface CleanupJob {
  status: string;
  attempts: number;
  max_attempts: number;
  payload: Record<string, unknown>;
}

async function cleanupJobs(server: TestServer, voiceId: string): Promise<CleanupJob[]> {
  const result = (await server.database.db.execute(
    sql`select status, attempts, max_attempts, payload from jobs where kind = 'voice-clone-cleanup' and payload->>'voiceId' = ${voiceId}`,
  )) as unknown as { rows: CleanupJob[] };
  return result.rows;
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a cloned voice that cannot be removed at ElevenLabs right now', () => {
  let s: Setup;
  let owner: TestClient;

  beforeAll(async () => {
    s = await startWithLine({ JOB_RETRY_BASE_MS: '100' });
    owner = await s.server.user();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('personality deleted while ElevenLabs is unreachable: the delete succeeds, a job is queued, and it removes the voice once ElevenLabs answers', async () => {
    const id = await createPersonality(owner, 'Grandad');
    const voiceId = await cloneVoice(owner, id);
    s.line.deleteAnswer = 'unreachable';

    expect((await owner.delete(`/api/personalities/${id}`)).status).toBe(200);
    expect(s.line.deletes.some((d) => d.voiceId === voiceId)).toBe(true);
    const queued = await cleanupJobs(s.server, voiceId);
    expect(queued).toHaveLength(1);
    expect(['queued', 'running']).toContain(queued[0]!.status);
    // The job names the voice only: the API key stays in the configuration.
    expect(queued[0]!.payload).toEqual({ voiceId });
    expect(s.fake.deletedVoices).not.toContain(voiceId);

    s.line.deleteAnswer = 'forward';
    await waitFor('the fake removed the voice', () => s.fake.deletedVoices.includes(voiceId));
    await waitFor('the job is done', async () => (await cleanupJobs(s.server, voiceId)).length === 0);
    expect(s.server.logs.some((l) => l.includes(`gave up removing cloned voice ${voiceId}`))).toBe(false);
  });

  it('ElevenLabs that never answers: the delete answers anyway (after a short wait, not the SDK\'s 120 s), and the job removes the voice later', async () => {
    const id = await createPersonality(owner, 'Grandma');
    const voiceId = await cloneVoice(owner, id);
    s.line.deleteAnswer = 'silent';

    expect((await owner.delete(`/api/personalities/${id}`)).status).toBe(200);
    // Answered while ElevenLabs still has not answered the removal.
    expect(s.line.unanswered.length).toBeGreaterThan(0);
    expect(s.line.unanswered.every((res) => !res.writableEnded)).toBe(true);
    expect(await cleanupJobs(s.server, voiceId)).toHaveLength(1);

    // ElevenLabs comes back: the removals left hanging break off, and the job's retry gets through.
    s.line.deleteAnswer = 'forward';
    for (const res of s.line.unanswered.splice(0)) res.destroy();
    await waitFor('the fake removed the voice', () => s.fake.deletedVoices.includes(voiceId), 60_000);
  }, 90_000);

  it('clone replaced while ElevenLabs answers DELETE with 503: the new clone is in use, and a job removes the old one once ElevenLabs answers', async () => {
    const id = await createPersonality(owner, 'Nan');
    const first = await cloneVoice(owner, id);
    s.line.deleteAnswer = 'unavailable';

    const second = await cloneVoice(owner, id);
    expect(second).not.toBe(first);
    expect(s.line.deletes.filter((d) => d.voiceId === first).map((d) => d.answer)).toContain('unavailable');
    const queued = await cleanupJobs(s.server, first);
    expect(queued).toHaveLength(1);
    expect(queued[0]!.payload).toEqual({ voiceId: first });
    expect(s.fake.deletedVoices).not.toContain(first);

    s.line.deleteAnswer = 'forward';
    await waitFor('the fake removed the replaced voice', () => s.fake.deletedVoices.includes(first));
    await waitFor('the job is done', async () => (await cleanupJobs(s.server, first)).length === 0);
    // Only the replaced clone goes: the personality keeps speaking with the new one.
    expect(s.fake.deletedVoices).not.toContain(second);
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.customVoiceId).toBe(second);
  });

  it('a 404 once ElevenLabs answers means the voice is already gone: the job completes without another attempt', async () => {
    const id = await createPersonality(owner, 'Aunt');
    const voiceId = await cloneVoice(owner, id);
    s.line.deleteAnswer = 'unreachable';
    expect((await owner.delete(`/api/personalities/${id}`)).status).toBe(200);
    expect(await cleanupJobs(s.server, voiceId)).toHaveLength(1);

    s.line.deleteAnswer = 'gone';
    await waitFor('the job is done', async () => (await cleanupJobs(s.server, voiceId)).length === 0);
    // A retry would ask again after 100 ms or more: wait past that, and count.
    await new Promise((r) => setTimeout(r, 600));
    expect(s.line.deletes.filter((d) => d.voiceId === voiceId && d.answer === 'gone')).toHaveLength(1);
    expect(s.server.logs.some((l) => l.includes(`gave up removing cloned voice ${voiceId}`))).toBe(false);
  });
});

describe('a cloned voice whose removal ElevenLabs keeps refusing (a bad key)', () => {
  let s: Setup;

  beforeAll(async () => {
    // No pause between attempts: the bound, not the backoff, is what this is about.
    s = await startWithLine({ JOB_RETRY_BASE_MS: '0' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('is tried at most maxAttempts times, then given up with one warning naming the voice', async () => {
    const owner = await s.server.user();
    const id = await createPersonality(owner, 'Uncle');
    const voiceId = await cloneVoice(owner, id);
    s.line.deleteAnswer = 'bad-key';

    expect((await owner.delete(`/api/personalities/${id}`)).status).toBe(200);
    await waitFor('the job failed for good', async () => (await cleanupJobs(s.server, voiceId))[0]?.status === 'failed');
    const [job] = await cleanupJobs(s.server, voiceId);
    expect(job!.attempts).toBe(job!.max_attempts);
    await new Promise((r) => setTimeout(r, 300));
    // The request's own try, then one per attempt of the job; nothing after it gave up.
    expect(s.line.deletes.filter((d) => d.voiceId === voiceId)).toHaveLength(1 + job!.max_attempts);
    const gaveUp = s.server.logs.filter((l) => l.includes(`gave up removing cloned voice ${voiceId}`));
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]).toMatch(/ WARN /);
    expect(s.fake.deletedVoices).not.toContain(voiceId);
  });
});
