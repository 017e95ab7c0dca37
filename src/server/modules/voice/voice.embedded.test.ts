// The embedded path end to end, no provider at all: a sentence spoken by the embedded synthesizer
// (flite through node:wasi), resampled to the browser's 16 kHz WAV, uploaded, and recognised by
// pocketsphinx (when the machine has it: Debian pocketsphinx + pocketsphinx-en-us).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { findPocketsphinx } from '../../ai/speech/pocketsphinx-speech-to-text';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { messages } from '../../../shared/messages';
import { speak, spokenWav16, transcribe } from './voice.test-support';

const hasPocketsphinx = findPocketsphinx() !== undefined;
let server: TestServer;
let id: string;

beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_VOICE_PER_MINUTE: '1000', RATE_LIMIT_SPEECH_PER_MINUTE: '1000' } });
  const owner = await server.user();
  id = await createPersonality(owner, 'Offline Friend');
  await makePublic(server.database.db, id);
});
afterAll(async () => {
  await server?.close();
});

describe('without provider settings', () => {
  it('a personality whose voice provider is not configured here speaks with the embedded voice', async () => {
    const owner = await server.user();
    const openaiId = await createPersonality(owner, 'Wants Nova', { voiceProvider: 'openai', voice: 'nova' });
    const res = await speak(owner, openaiId, 'Hello.');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-voice-provider')).toBe('embedded');
    expect(res.headers.get('content-type')).toBe('audio/wav');
  });

  it('text in a script the embedded voice cannot speak is TTS_BROWSER (the browser voice speaks it), never a silent WAV', async () => {
    for (const text of ['李白是唐朝著名的诗人。', 'ولد جبران في بشري في لبنان.', 'Толстой родился в 1828 году.', '李白是唐朝著名的诗人 (Li Bai)。']) {
      const res = await speak(server.client(), id, text);
      expect(res.status, text).toBe(503);
      expect(res.body.error, text).toMatchObject({ code: 'TTS_BROWSER', message: messages.voice.ttsBrowser });
    }
    // English still speaks in the embedded voice: a WAV with samples after its 44-byte header.
    const english = await speak(server.client(), id, 'Hello there, my friend.');
    expect(english.status).toBe(200);
    expect(english.headers.get('x-voice-provider')).toBe('embedded');
    expect(english.bytes.byteLength).toBeGreaterThan(1000);
  });
});

describe.skipIf(!hasPocketsphinx)('offline speech in and out (pocketsphinx installed)', () => {
  it('capabilities name pocketsphinx, labelled approximate, and the embedded voice', async () => {
    const caps = await server.client().get('/api/voice/capabilities');
    expect(caps.body.stt).toEqual({ available: true, engine: 'pocketsphinx', approximate: true });
    expect(caps.body.tts).toEqual({ default: 'embedded', openai: false, elevenlabs: false });
  });

  it('recognises a sentence the embedded synthesizer spoke', async () => {
    const wav = await spokenWav16('The quick brown fox jumps over the lazy dog.');
    const res = await transcribe(server.client(), id, wav);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ engine: 'pocketsphinx', approximate: true });
    // Approximate: most of the words, not necessarily all of them.
    const words = new Set(String(res.body.text).toLowerCase().split(/\s+/));
    const expected = ['quick', 'brown', 'fox', 'over', 'the', 'lazy', 'dog'];
    expect(expected.filter((w) => words.has(w)).length, res.body.text).toBeGreaterThanOrEqual(5);
  });

  it("the server's own speech round-trips: synthesized by /speech, recognised by /transcribe", async () => {
    const spoken = await speak(server.client(), id, 'Good morning, how are you today?');
    expect(spoken.status).toBe(200);
    expect(spoken.headers.get('x-voice-provider')).toBe('embedded');
    // The browser would record this at 16 kHz: resample the 8 kHz answer the same way.
    const { wav16 } = await import('./voice.test-support');
    const b = Buffer.from(spoken.bytes);
    const n = (b.length - 44) / 2;
    const up = new Int16Array(n * 2);
    for (let i = 0; i < n; i++) {
      const a = b.readInt16LE(44 + i * 2);
      const c = i + 1 < n ? b.readInt16LE(46 + i * 2) : a;
      up[2 * i] = a;
      up[2 * i + 1] = Math.round((a + c) / 2);
    }
    const res = await transcribe(server.client(), id, wav16(up));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(String(res.body.text).toLowerCase()).toMatch(/morning|how|today/);
  });
});
