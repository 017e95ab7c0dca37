// ElevenLabs voice credits: every synthesis adds its characters to today's elevenlabs_usage row
// (UTC), the daily limit is enforced before a request is sent, atomically (50 concurrent requests
// with credit for one: exactly one goes through), other providers keep working past it, and a
// new UTC day starts from zero. Admins read the figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { speak, startVoiceServer, type VoiceTestServer } from './voice.test-support';
import { creditsUsedOn, reserveCredits } from './voice.repository';

const LIMIT = 100;
const ADMIN_EMAIL = 'credits-admin@example.com';
// A clock the test moves (one minute before midnight UTC, to cross the day boundary).
const clock = { at: Date.UTC(2031, 4, 6, 23, 50, 0), now: () => new Date(clock.at) };
let v: VoiceTestServer;
let owner: TestClient & { id: string };
let admin: TestClient & { id: string };
let elevenId: string;
let openaiId: string;

beforeAll(async () => {
  v = await startVoiceServer({ clock, env: { VOICE_DAILY_CREDIT_LIMIT: String(LIMIT), ADMIN_EMAILS: ADMIN_EMAIL } });
  owner = await v.server.user();
  admin = await v.server.user(ADMIN_EMAIL);
  elevenId = await createPersonality(owner, 'Eleven', { voiceProvider: 'elevenlabs', voice: 'female' });
  await makePublic(v.server.database.db, elevenId);
  openaiId = await createPersonality(owner, 'Alloy', { voiceProvider: 'openai', voice: 'alloy' });
});
afterAll(async () => {
  await v?.close();
});

const sixty = 'x'.repeat(59) + '.';

describe('voice credits', () => {
  it("counts characters on today's UTC row and refuses past the limit before calling ElevenLabs", async () => {
    expect((await speak(owner, elevenId, sixty)).status).toBe(200);
    // [DO_NOT_READ] text is not spoken, so it is not counted.
    expect((await speak(owner, elevenId, 'Hi there.[DO_NOT_READ]a long citation that is never read[/DO_NOT_READ]')).status).toBe(200);
    expect(await creditsUsedOn(v.server.database.db, '2031-05-06')).toBe(60 + 9);
    const usage = await admin.get('/api/admin/monitoring/voice-usage');
    expect(usage.body).toEqual({ date: '2031-05-06', charactersUsed: 69, dailyLimit: LIMIT });

    const sent = v.elevenlabs.requests.length;
    const refused = await speak(owner, elevenId, sixty);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'VOICE_CREDITS_EXHAUSTED', message: messages.voice.creditsExhausted });
    expect(v.elevenlabs.requests.length).toBe(sent);
    // What still fits goes through; exactly at the limit is allowed.
    expect((await speak(owner, elevenId, 'y'.repeat(31))).status).toBe(200);
    expect(await creditsUsedOn(v.server.database.db, '2031-05-06')).toBe(LIMIT);
    expect((await speak(owner, elevenId, 'z')).status).toBe(429);

    // Other providers keep working.
    expect((await speak(owner, openaiId, sixty)).status).toBe(200);
  });

  it('a new UTC day starts from zero', async () => {
    clock.at += 15 * 60 * 1000; // 00:05 UTC the next day
    expect((await speak(owner, elevenId, sixty)).status).toBe(200);
    expect(await creditsUsedOn(v.server.database.db, '2031-05-07')).toBe(60);
    expect(await creditsUsedOn(v.server.database.db, '2031-05-06')).toBe(LIMIT);
  });

  it('50 concurrent requests with credit left for one: exactly one is sent', async () => {
    clock.at += 24 * 60 * 60 * 1000; // 2031-05-08, empty
    const sent = v.elevenlabs.requests.length;
    const anonymous = v.server.client();
    const results = await Promise.all(Array.from({ length: 50 }, () => speak(anonymous, elevenId, sixty)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(49);
    expect(v.elevenlabs.requests.length - sent).toBe(1);
    expect(await creditsUsedOn(v.server.database.db, '2031-05-08')).toBe(60);
  });

  it('the reservation itself is atomic under 50 concurrent callers on a fresh day', async () => {
    const db = v.server.database.db;
    const granted = await Promise.all(Array.from({ length: 50 }, () => reserveCredits(db, '2031-06-01', 30, 100)));
    expect(granted.filter((g) => g !== undefined)).toHaveLength(3);
    expect(await creditsUsedOn(db, '2031-06-01')).toBe(90);
    expect(await reserveCredits(db, '2031-06-01', 101, 100)).toBeUndefined();
  });
});
