// Voice rate limits: counted per user (per address when signed out) in api_rate_limits windows in
// the database, so two app processes on one database share them; past the limit 429 with
// Retry-After and the spec's voice message; a new window starts fresh. Admins see the windows.
// Two apps here are two createApp on the same database handle (PGlite), or on the same
// PostgreSQL database when TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../app';
import { createLogger } from '../../lib/logger';
import { createMailer } from '../../auth/mailer';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { createClient, type TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import { apiRateLimits } from '../../db/schema/rate-limits';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { speak, startVoiceServer, toneWav16, transcribe, type VoiceTestServer } from './voice.test-support';

const MAX = 3;
const ADMIN_EMAIL = 'limits-admin@example.com';
const clock = { at: Date.UTC(2032, 0, 1, 10, 0, 5), now: () => new Date(clock.at) };
let v: VoiceTestServer;
let second: { url: string; close(): Promise<void> };
let secondDb: DatabaseHandle | undefined;
let alice: TestClient & { id: string };
let bob: TestClient & { id: string };
let admin: TestClient & { id: string };
let id: string;

/** The same person (same cookies) talking to the second app process. */
function onSecond(client: TestClient): TestClient {
  const other = createClient(second.url);
  for (const [k, val] of client.cookies) other.cookies.set(k, val);
  return other;
}

beforeAll(async () => {
  v = await startVoiceServer({
    clock,
    env: { RATE_LIMIT_VOICE_PER_MINUTE: String(MAX), RATE_LIMIT_SPEECH_PER_MINUTE: String(MAX), ADMIN_EMAILS: ADMIN_EMAIL },
  });
  // A second app process on the same database (its own port and public URL).
  const probe = serve({ fetch: () => new Response(''), port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => probe.once('listening', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const config = { ...v.server.config, port, publicUrl: `http://127.0.0.1:${port}` };
  const logger = createLogger('silent');
  // On PostgreSQL the second process has its own connection pool to the same database.
  if (config.databaseUrl) secondDb = await openDatabase({ databaseUrl: config.databaseUrl, logger });
  const { app } = createApp({
    config,
    database: secondDb ?? v.server.database,
    logger,
    clock,
    mailer: createMailer(undefined, config.smtpFrom, logger),
    authSecret: config.authSecret!,
  });
  const httpServer = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
  await new Promise((r) => httpServer.once('listening', r));
  second = { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => httpServer.close(() => r())) };

  [alice, bob, admin] = await Promise.all([v.server.user(), v.server.user(), v.server.user(ADMIN_EMAIL)]);
  id = await createPersonality(alice, 'Limited');
  await makePublic(v.server.database.db, id);
});
afterAll(async () => {
  await second?.close();
  await secondDb?.close();
  await v?.close();
});

function expectVoiceLimited(res: { status: number; body: any; headers: Headers }) {
  expect(res.status).toBe(429);
  expect(res.body.error).toMatchObject({ code: 'VOICE_RATE_LIMITED', message: messages.voice.rateLimited });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60).toBe(true);
  expect(res.body.error.details.retryAfter).toBe(retryAfter);
}

describe('voice rate limits', () => {
  it('one window shared by two app processes: per user, the other user unaffected, a new window resets', async () => {
    const aliceThere = onSecond(alice);
    expect((await transcribe(alice, id, toneWav16(0.3))).status).toBe(200);
    expect((await transcribe(aliceThere, id, toneWav16(0.3))).status).toBe(200);
    expect((await transcribe(alice, id, toneWav16(0.3))).status).toBe(200);
    const sent = v.openai.transcriptions.length;
    expectVoiceLimited(await transcribe(aliceThere, id, toneWav16(0.3)));
    expectVoiceLimited(await transcribe(alice, id, toneWav16(0.3)));
    expect(v.openai.transcriptions.length).toBe(sent);
    // Bob has his own window; speech has its own counter.
    expect((await transcribe(onSecond(bob), id, toneWav16(0.3))).status).toBe(200);
    expect((await speak(alice, id, 'Still speaking.')).status).toBe(200);

    clock.at += 60 * 1000;
    expect((await transcribe(aliceThere, id, toneWav16(0.3))).status).toBe(200);
  });

  it('anonymous visitors are counted by address, across both processes', async () => {
    clock.at += 60 * 1000;
    const here = v.server.client();
    const there = createClient(second.url);
    expect((await speak(here, id, 'One.')).status).toBe(200);
    expect((await speak(there, id, 'Two.')).status).toBe(200);
    expect((await speak(v.server.client(), id, 'Three.')).status).toBe(200);
    const limited = await speak(there, id, 'Four.');
    expectVoiceLimited({ ...limited, body: limited.body });
  });

  it('admins see the windows of the last 24 hours, newest first, user ids cut to 8 characters', async () => {
    const res = await admin.get('/api/admin/monitoring/rate-limits');
    expect(res.status).toBe(200);
    const rows = res.body.rows as { endpoint: string; requestCount: number; windowStart: string; userId: string | null; ipAddress: string | null }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(20);
    const starts = rows.map((r) => Date.parse(r.windowStart));
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
    const aliceFirst = rows.find((r) => r.endpoint === 'voice/transcribe' && r.userId === alice.id.slice(0, 8) && r.requestCount === MAX + 2);
    expect(aliceFirst).toMatchObject({ ipAddress: '127.0.0.1' });
    expect(rows.every((r) => r.userId === null || r.userId.length <= 8)).toBe(true);
    expect(rows.some((r) => r.endpoint === 'voice/speech' && r.userId === null && r.requestCount === MAX + 1)).toBe(true);

    // A busy hour's window (the warning's reason to exist) is listed before twenty quiet minute
    // windows opened after it; newest first otherwise.
    const db = v.server.database.db;
    const hourStart = new Date(clock.at - 50 * 60 * 1000);
    await db.insert(apiRateLimits).values({ endpoint: 'feedback', subject: 'ip:203.0.113.9', windowStart: hourStart, requestCount: limits.rateLimitWarningCount + 5, ipAddress: '203.0.113.9' });
    await db.insert(apiRateLimits).values(
      Array.from({ length: 25 }, (_, i) => ({ endpoint: 'chat', subject: `ip:198.51.100.${i}`, windowStart: new Date(clock.at - i * 60 * 1000), requestCount: 1, ipAddress: `198.51.100.${i}` })),
    );
    const busy = (await admin.get('/api/admin/monitoring/rate-limits')).body.rows as { endpoint: string; requestCount: number; windowStart: string }[];
    expect(busy).toHaveLength(20);
    expect(busy[0]).toMatchObject({ endpoint: 'feedback', requestCount: limits.rateLimitWarningCount + 5, windowStart: hourStart.toISOString() });
    const rest = busy.slice(1).map((r) => Date.parse(r.windowStart));
    expect([...rest].sort((a, b) => b - a)).toEqual(rest);

    // Windows older than 24 hours drop out.
    clock.at += 25 * 60 * 60 * 1000;
    expect((await admin.get('/api/admin/monitoring/rate-limits')).body.rows.filter((r: { endpoint: string }) => r.endpoint.startsWith('voice/'))).toEqual([]);
  });
});
