// Speech: the personality's voice from its provider (default embedded synthesizer, openai,
// elevenlabs), streamed audio with the voice headers, [DO_NOT_READ] never spoken, and the spec's
// fallbacks: openai failure -> TTS_FALLBACK (browser voice), elevenlabs failure -> an error (TTS_ERROR,
// or its rate limit / spent credits with their own messages).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { voiceVolumeMultiplier } from '../../../shared/voice-volume';
import { createPersonality } from '../conversations/conversations.test-support';
import { isMp3, isWav, speak, startVoiceServer, type VoiceTestServer } from './voice.test-support';
import { OPENAI_SPEECH_INPUT_MAX } from './voice.service';

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let embeddedId: string;
let openaiId: string;
let elevenId: string;

beforeAll(async () => {
  v = await startVoiceServer();
  owner = await v.server.user();
  embeddedId = await createPersonality(owner, 'Plain Voice');
  openaiId = await createPersonality(owner, 'Nova Voice', { voiceProvider: 'openai', voice: 'nova' });
  elevenId = await createPersonality(owner, 'Eleven Voice', { voiceProvider: 'elevenlabs', voice: 'male' });
});
afterAll(async () => {
  await v?.close();
});

describe('the personality speaks with its own voice', () => {
  it('default: the embedded synthesizer answers a real WAV of the sentence', async () => {
    const res = await speak(owner, embeddedId, 'Good morning, it is a fine day.');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('x-voice-provider')).toBe('embedded');
    expect(isWav(res.bytes)).toBe(true);
    // Eight thousand 16-bit samples a second: a sentence is well over half a second of sound.
    expect(res.bytes.length).toBeGreaterThan(8000);
    const dv = new DataView(res.bytes.buffer, res.bytes.byteOffset);
    expect(dv.getUint16(20, true)).toBe(1); // PCM
    let peak = 0;
    for (let i = 44; i + 1 < res.bytes.length; i += 2) peak = Math.max(peak, Math.abs(dv.getInt16(i, true)));
    expect(peak).toBeGreaterThan(1000);
  });

  it('openai: the fake receives the chosen voice and model; mp3 bytes stream back with the voice headers', async () => {
    const res = await speak(owner, openaiId, 'Hello from the other side.');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('x-voice-provider')).toBe('openai');
    expect(res.headers.get('x-voice-id')).toBe('nova');
    expect(Number(res.headers.get('x-voice-volume'))).toBe(voiceVolumeMultiplier('openai', 'nova'));
    expect(isMp3(res.bytes)).toBe(true);
    // Where the time went (open mic's latency budget): rate limit, access check, speech, total.
    expect((res.headers.get('server-timing') ?? '').split(',').map((m) => m.split(';')[0])).toEqual(['limit', 'access', 'tts', 'total']);
    expect(v.openai.speeches.at(-1)).toMatchObject({
      body: { model: 'tts-1', input: 'Hello from the other side.', voice: 'nova', response_format: 'mp3' },
      authorization: 'Bearer sk-fake-openai',
    });
  });

  it('elevenlabs: the official SDK calls the streaming endpoint with the preset voice id and key', async () => {
    const res = await speak(owner, elevenId, 'Greetings, traveller.');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-voice-provider')).toBe('elevenlabs');
    expect(res.headers.get('x-voice-id')).toBe('TxGEqnHWrfWFTfGW9XjX');
    expect(isMp3(res.bytes)).toBe(true);
    expect(v.elevenlabs.requests.at(-1)).toMatchObject({
      voiceId: 'TxGEqnHWrfWFTfGW9XjX',
      outputFormat: 'mp3_44100_128',
      apiKey: 'fake-elevenlabs-key',
      body: { text: 'Greetings, traveller.', model_id: 'eleven_flash_v2_5' },
    });
  });

  it('[DO_NOT_READ] blocks are never spoken; nothing left to speak is a 400', async () => {
    await speak(owner, openaiId, 'The engine works.[DO_NOT_READ] from notes.txt (chunk 2)[/DO_NOT_READ] Truly.');
    expect(v.openai.speeches.at(-1)!.body.input).toBe('The engine works. Truly.');
    const before = v.openai.speeches.length;
    const nothing = await speak(owner, openaiId, '[DO_NOT_READ]only a citation[/DO_NOT_READ]');
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.message).toBe(messages.voice.nothingToSpeak);
    expect(v.openai.speeches.length).toBe(before);
  });

  it("openai: a reply longer than OpenAI's 4,096 characters is spoken up to there, at a word's end, not refused", async () => {
    const long = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' '); // ~4,500 characters
    expect(long.length).toBeGreaterThan(OPENAI_SPEECH_INPUT_MAX);
    const res = await speak(owner, openaiId, long);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-voice-provider')).toBe('openai');
    const sent = v.openai.speeches.at(-1)!.body.input!;
    expect(sent.length).toBeLessThanOrEqual(OPENAI_SPEECH_INPUT_MAX);
    expect(long.startsWith(sent)).toBe(true);
    expect(sent).toMatch(/word\d+$/);
    expect(long.slice(sent.length)).toMatch(/^ word\d+/);
  });
});

describe('failures follow the spec', () => {
  it('openai speech failing (5xx, 429, quota): 502 TTS_FALLBACK, the browser voice takes over', async () => {
    for (const fail of ['server_error', 'rate_limit', 'quota'] as const) {
      v.openai.setAudio({ speechFail: fail });
      const res = await speak(owner, openaiId, 'Are you there?');
      expect(res.status, fail).toBe(502);
      expect(res.body.error.code).toBe('TTS_FALLBACK');
    }
    v.openai.setAudio({ speechFail: 'none' });
    expect((await speak(owner, openaiId, 'Back again.')).status).toBe(200);
  });

  it('elevenlabs failing: an error message that says what to do, no fallback voice', async () => {
    // A failure worth trying again; too many requests (wait); the account's credits spent (401
    // quota_exceeded: only the administrator can help, retrying does not).
    const expected = {
      server_error: { status: 502, code: 'TTS_ERROR', message: messages.voice.ttsError },
      rate_limit: { status: 429, code: 'VOICE_RATE_LIMITED', message: messages.voice.rateLimited },
      quota: { status: 402, code: 'VOICE_QUOTA', message: messages.voice.elevenLabsCreditsExhausted },
    };
    for (const [fail, { status, code, message }] of Object.entries(expected)) {
      v.elevenlabs.set({ fail: fail as keyof typeof expected });
      const res = await speak(owner, elevenId, 'Are you there?');
      expect(res.status, fail).toBe(status);
      expect(res.body.error, fail).toMatchObject({ code, message });
    }
    v.elevenlabs.set({ fail: 'none' });
    expect((await speak(owner, elevenId, 'Back again.')).status).toBe(200);
  });

  it('a refused ElevenLabs request costs no credits', async () => {
    const admin = v.server; // the usage figure is read straight from the service's table
    const { creditsUsedOn } = await import('./voice.repository');
    const day = new Date().toISOString().slice(0, 10);
    const before = await creditsUsedOn(admin.database.db, day);
    v.elevenlabs.set({ fail: 'server_error' });
    expect((await speak(owner, elevenId, 'Twelve chars')).status).toBe(502);
    v.elevenlabs.set({ fail: 'none' });
    expect(await creditsUsedOn(admin.database.db, day)).toBe(before);
    expect((await speak(owner, elevenId, 'Twelve chars')).status).toBe(200);
    expect(await creditsUsedOn(admin.database.db, day)).toBe(before + 'Twelve chars'.length);
  });
});
