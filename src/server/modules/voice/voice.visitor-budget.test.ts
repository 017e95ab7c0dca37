// Paid voices (OpenAI, ElevenLabs) have a daily character budget per visitor
// (VOICE_DAILY_CHARACTERS_PER_VISITOR): a signed-in person by account, an anonymous one by address
// (an IPv6 address by its /64). The characters counted are the ones sent to the provider (after
// [DO_NOT_READ] is taken out), per UTC day, in the database; a provider's refusal gives them back.
// Past it an OpenAI voice answers TTS_FALLBACK (the browser speaks), an ElevenLabs voice answers as
// the site-wide daily cap does, and neither provider hears of the request. The embedded voice is free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { loadConfig } from '../../config';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { creditsUsedOn } from './voice.repository';
import { speak, speechOf, startVoiceServer, toneWav16, voiceTurnEvents, type VoiceTestServer } from './voice.test-support';

const BUDGET = 100;
const ADMIN_EMAIL = 'budget-admin@example.com';
// A clock the test moves: the budget is per UTC day.
const clock = { at: Date.UTC(2032, 2, 4, 21, 0, 0), now: () => new Date(clock.at) };
const today = () => new Date(clock.at).toISOString().slice(0, 10);

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let openaiId: string;
let elevenId: string;
let embeddedId: string;

beforeAll(async () => {
  v = await startVoiceServer(
    // 127.0.0.1 is the trusted proxy: each test names its visitor's address in X-Forwarded-For.
    { clock, env: { VOICE_DAILY_CHARACTERS_PER_VISITOR: String(BUDGET), TRUSTED_PROXIES: '127.0.0.1', ADMIN_EMAILS: ADMIN_EMAIL } },
    { chatModel: true },
  );
  owner = await v.server.user();
  openaiId = await createPersonality(owner, 'Nova', { voiceProvider: 'openai', voice: 'nova' });
  elevenId = await createPersonality(owner, 'Eleven', { voiceProvider: 'elevenlabs', voice: 'female' });
  embeddedId = await createPersonality(owner, 'Plain');
  for (const id of [openaiId, elevenId, embeddedId]) await makePublic(v.server.database.db, id);
});
afterAll(async () => {
  await v?.close();
});

const from = (address: string) => ({ 'x-forwarded-for': address });
const chars = (n: number) => 'x'.repeat(n - 1) + '.';
const anonymous = () => v.server.client();
/** Log lines about this visitor's refusals. */
const refusals = (who: string) => v.server.logs.filter((l) => l.includes(who) && /characters/.test(l));

describe('the daily character budget of paid voices, per visitor', () => {
  it('an anonymous visitor past it hears the browser voice for an OpenAI voice; OpenAI hears nothing more; one log line, without the text', async () => {
    const a = '203.0.113.10';
    expect((await speak(anonymous(), openaiId, chars(60), from(a))).status).toBe(200);
    // Exactly at the budget is allowed.
    expect((await speak(anonymous(), openaiId, chars(40), from(a))).status).toBe(200);
    const sent = v.openai.speeches.length;
    const refused = await speak(anonymous(), openaiId, 'Secret words here.', from(a));
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({ code: 'TTS_FALLBACK' });
    // A fresh cookie jar from the same address is the same visitor.
    expect((await speak(anonymous(), openaiId, 'Hi.', from(a))).body.error.code).toBe('TTS_FALLBACK');
    expect(v.openai.speeches.length).toBe(sent);
    expect(refusals(a)).toHaveLength(2);
    expect(v.server.logs.some((l) => l.includes('Secret words'))).toBe(false);
    // The embedded voice is free: it still speaks.
    const plain = await speak(anonymous(), embeddedId, 'Hello there.', from(a));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-voice-provider')).toBe('embedded');
  });

  it('counts what is sent to the provider: [DO_NOT_READ] text is not counted', async () => {
    const a = '203.0.113.12';
    const hidden = `${chars(90)}[DO_NOT_READ]${'a citation never read. '.repeat(20)}[/DO_NOT_READ]`;
    expect((await speak(anonymous(), openaiId, hidden, from(a))).status).toBe(200);
    expect(v.openai.speeches.at(-1)!.body.input).toBe(chars(90));
    expect((await speak(anonymous(), openaiId, chars(10), from(a))).status).toBe(200);
    expect((await speak(anonymous(), openaiId, 'z', from(a))).body.error.code).toBe('TTS_FALLBACK');
  });

  it('another address, and a signed-in person at the same address, still get the paid voice; a person is counted by account wherever they are', async () => {
    const a = '203.0.113.10'; // spent in the first test
    expect((await speak(anonymous(), openaiId, chars(60), from('203.0.113.11'))).status).toBe(200);
    const person = await v.server.user();
    const heard = await speak(person, openaiId, chars(60), from(a));
    expect(heard.status).toBe(200);
    expect(heard.headers.get('x-voice-provider')).toBe('openai');
    expect((await speak(person, openaiId, chars(40), from('198.51.100.7'))).status).toBe(200);
    expect((await speak(person, openaiId, 'z', from('198.51.100.8'))).body.error.code).toBe('TTS_FALLBACK');
  });

  it('IPv6: addresses in one /64 share a budget; the next /64 has its own', async () => {
    expect((await speak(anonymous(), openaiId, chars(100), from('2001:db8:1:2::1'))).status).toBe(200);
    expect((await speak(anonymous(), openaiId, 'More.', from('2001:db8:1:2:abcd::9'))).body.error.code).toBe('TTS_FALLBACK');
    expect((await speak(anonymous(), openaiId, 'More.', from('2001:db8:1:3::1'))).status).toBe(200);
  });

  it('an ElevenLabs voice past it answers as the daily cap does; ElevenLabs hears nothing more and no site-wide credits go', async () => {
    const a = '203.0.113.20';
    expect((await speak(anonymous(), elevenId, chars(60), from(a))).status).toBe(200);
    const sent = v.elevenlabs.requests.length;
    const credits = await creditsUsedOn(v.server.database.db, today());
    const refused = await speak(anonymous(), elevenId, chars(60), from(a));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'VOICE_CREDITS_EXHAUSTED', message: messages.voice.creditsExhausted });
    expect(v.elevenlabs.requests.length).toBe(sent);
    expect(await creditsUsedOn(v.server.database.db, today())).toBe(credits);
    expect(refusals(a)).toHaveLength(1);
    // One budget for both paid voices: 60 spent on ElevenLabs leaves 40 for OpenAI.
    expect((await speak(anonymous(), openaiId, chars(41), from(a))).body.error.code).toBe('TTS_FALLBACK');
    expect((await speak(anonymous(), openaiId, chars(40), from(a))).status).toBe(200);
  });

  it("a provider's refusal gives the characters back", async () => {
    const a = '203.0.113.30';
    v.openai.setAudio({ speechFail: 'server_error' });
    try {
      for (let i = 0; i < 3; i++) expect((await speak(anonymous(), openaiId, chars(60), from(a))).body.error.code).toBe('TTS_FALLBACK');
    } finally {
      v.openai.setAudio({ speechFail: 'none' });
    }
    expect((await speak(anonymous(), openaiId, chars(100), from(a))).status).toBe(200);

    const b = '203.0.113.31';
    v.elevenlabs.set({ fail: 'server_error' });
    try {
      for (let i = 0; i < 3; i++) expect((await speak(anonymous(), elevenId, chars(60), from(b))).body.error.code).toBe('TTS_ERROR');
    } finally {
      v.elevenlabs.set({ fail: 'none' });
    }
    expect((await speak(anonymous(), elevenId, chars(100), from(b))).status).toBe(200);
  });

  it('concurrent requests never spend more than the budget together', async () => {
    const a = '203.0.113.40';
    const sent = v.openai.speeches.length;
    const results = await Promise.all(Array.from({ length: 20 }, () => speak(anonymous(), openaiId, chars(60), from(a))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body?.error?.code === 'TTS_FALLBACK')).toHaveLength(19);
    expect(v.openai.speeches.length - sent).toBe(1);
  });

  it("open mic's turn speaks its reply from the same budget: past it, the browser speaks the rest", async () => {
    const person = await v.server.user();
    expect((await speak(person, openaiId, chars(70), from('203.0.113.50'))).status).toBe(200);
    v.openai.chatSettings.mode = 'reply';
    v.openai.chatSettings.reply = 'Hello there, my good friend. I am very well today, thank you.';
    const sent = v.openai.speeches.length;
    const res = await voiceTurnEvents(person, openaiId, toneWav16(1));
    expect(res.status).toBe(200);
    const spoken = speechOf(res.events);
    // 70 + 28 fits; 70 + 32 does not (in whichever order the sentences are synthesized).
    expect(spoken.map((s) => ('error' in s ? s.error.code : s.provider))).toEqual(['openai', 'TTS_FALLBACK']);
    expect(v.openai.speeches.length - sent).toBe(1);
  });

  it("admin monitoring still lists request windows only (characters are no request count)", async () => {
    const admin = await v.server.user(ADMIN_EMAIL);
    const res = await admin.get('/api/admin/monitoring/rate-limits');
    expect(res.status).toBe(200);
    expect(res.body.rows.length).toBeGreaterThan(0);
    for (const row of res.body.rows as { endpoint: string }[]) expect(['voice/speech', 'voice/transcribe', 'chat', 'auth/sign-up', 'auth/sign-in', 'personalities/create']).toContain(row.endpoint);
  });

  it('the next UTC day the budget is back', async () => {
    const a = '203.0.113.10';
    expect((await speak(anonymous(), openaiId, 'z', from(a))).body.error.code).toBe('TTS_FALLBACK');
    clock.at = Date.UTC(2032, 2, 5, 0, 1, 0);
    expect((await speak(anonymous(), openaiId, chars(100), from(a))).status).toBe(200);
    expect((await speak(anonymous(), elevenId, 'z', from(a))).status).toBe(429);
  });
});

describe('the setting', () => {
  it('defaults to 20000 characters; 0 turns the budget off', async () => {
    expect(loadConfig({}).voice.dailyCharactersPerVisitor).toBe(20000);
    expect(loadConfig({ VOICE_DAILY_CHARACTERS_PER_VISITOR: '0' }).voice.dailyCharactersPerVisitor).toBe(0);
    expect(() => loadConfig({ VOICE_DAILY_CHARACTERS_PER_VISITOR: '-1' })).toThrow();
  });

  it('with 0 a visitor is not counted', async () => {
    const unbounded = await startVoiceServer({ env: { VOICE_DAILY_CHARACTERS_PER_VISITOR: '0' } });
    try {
      const person = await unbounded.server.user();
      const id = await createPersonality(person, 'Nova', { voiceProvider: 'openai', voice: 'nova' });
      // 25,000 characters: past the default budget.
      for (let i = 0; i < 5; i++) expect((await speak(person, id, chars(5000))).status).toBe(200);
      expect(unbounded.openai.speeches).toHaveLength(5);
    } finally {
      await unbounded.close();
    }
  });
});
