// Recordings are checked by their bytes (a RIFF/WAVE PCM file, sane lengths) and their size while
// they stream; provider failures reach the client as the spec's speech messages; the server
// stays up and answers the next request after every one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { TestClient } from '../../test-support/test-server';
import { startTestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { silentWav16, speak, startVoiceServer, toneWav16, transcribe, wav16, type VoiceTestServer } from './voice.test-support';

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let id: string;

beforeAll(async () => {
  v = await startVoiceServer();
  owner = await v.server.user();
  id = await createPersonality(owner, 'Listener');
});
afterAll(async () => {
  await v?.close();
});

async function stillAnswers() {
  const ok = await transcribe(owner, id, toneWav16(0.5));
  expect(ok.status).toBe(200);
}

describe('bad audio is refused with a clear error, and nothing reaches the provider', () => {
  it('wrong type (by content, whatever the header says), empty, truncated, unsupported format', async () => {
    const before = v.openai.transcriptions.length;
    const mp3 = new Uint8Array([0xff, 0xfb, 0x90, 0xc4, ...new Array(600).fill(0)]);
    const notWav = await transcribe(owner, id, mp3, { 'content-type': 'audio/wav' });
    expect(notWav.status).toBe(400);
    expect(notWav.body.error).toMatchObject({ code: 'BAD_AUDIO', message: messages.voice.notWav, details: { reason: 'not-wav' } });
    const text = await transcribe(owner, id, 'RIFX this is plain text pretending to be a recording');
    expect(text.body.error.details.reason).toBe('not-wav');

    const empty = await transcribe(owner, id, new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'BAD_AUDIO', message: messages.voice.emptyAudio });
    const noSamples = await transcribe(owner, id, wav16(new Int16Array(0)));
    expect(noSamples.body.error.details.reason).toBe('empty');

    // The header promises a second of samples; the file stops after a few.
    const full = toneWav16(1);
    const cut = await transcribe(owner, id, full.subarray(0, 44 + 200));
    expect(cut.status).toBe(400);
    expect(cut.body.error).toMatchObject({ code: 'BAD_AUDIO', message: messages.voice.truncatedAudio, details: { reason: 'truncated' } });
    const headerOnly = await transcribe(owner, id, full.subarray(0, 20));
    expect(headerOnly.body.error.details.reason).toBe('truncated');

    const eightBit = Buffer.from(toneWav16(0.5));
    eightBit.writeUInt16LE(8, 34);
    const format = await transcribe(owner, id, eightBit);
    expect(format.status).toBe(400);
    expect(format.body.error).toMatchObject({ code: 'BAD_AUDIO', message: messages.voice.badAudioFormat });

    const tooLong = await transcribe(owner, id, toneWav16(70));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details.reason).toBe('too-long');

    expect(v.openai.transcriptions.length).toBe(before);
    await stillAnswers();
  });

  it('over 10 MB: 413 with the spec message, whether the length is declared or only streamed', async () => {
    const big = new Uint8Array(11 * 1024 * 1024);
    big.set(toneWav16(0.1).subarray(0, 44));
    const declared = await transcribe(owner, id, big);
    expect(declared.status).toBe(413);
    expect(declared.body.error).toMatchObject({ code: 'AUDIO_TOO_LARGE', message: 'Audio file too large (11.0 MB). Maximum size is 10MB.' });

    // Chunked, no Content-Length: the limit acts while the body streams.
    const streamed = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const url = new URL(`${v.server.url}/api/personalities/${id}/voice/transcribe`);
      const req = http.request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'audio/wav',
            'transfer-encoding': 'chunked',
            origin: new URL(v.server.url).origin,
            cookie: [...owner.cookies].map(([k, val]) => `${k}=${val}`).join('; '),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      let sent = 0;
      const chunk = Buffer.alloc(256 * 1024, 1);
      const pump = () => {
        while (sent < 12 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(streamed.status).toBe(413);
    expect(streamed.body.error.code).toBe('AUDIO_TOO_LARGE');
    expect(streamed.body.error.message).toMatch(/^Audio file too large \(\d+\.\d MB\)\. Maximum size is 10MB\.$/);

    // Exactly at the limit is accepted as a size (then checked as audio).
    const atLimit = new Uint8Array(10 * 1024 * 1024);
    expect((await transcribe(owner, id, atLimit)).status).toBe(400);
    await stillAnswers();
  });

  it('silence, or a transcript with no words: 422 "No speech detected"', async () => {
    const before = v.openai.transcriptions.length;
    const silent = await transcribe(owner, id, silentWav16(1));
    expect(silent.status).toBe(422);
    expect(silent.body.error).toMatchObject({ code: 'NO_SPEECH', message: 'No speech detected - try speaking louder' });
    expect(v.openai.transcriptions.length).toBe(before);
    v.openai.setAudio({ transcript: '  ' });
    const nothing = await transcribe(owner, id, toneWav16(0.5));
    expect(nothing.status).toBe(422);
    expect(nothing.body.error.code).toBe('NO_SPEECH');
    v.openai.setAudio({ transcript: 'Hello, who are you?' });
  });

  it('sends the provider a real multipart WAV upload with the model and the key', async () => {
    await stillAnswers();
    const last = v.openai.transcriptions.at(-1)!;
    expect(last).toMatchObject({ model: 'whisper-1', fileName: 'speech.wav', fileType: 'audio/wav', wav: true, authorization: 'Bearer sk-fake-openai' });
    expect(last.bytes).toBe(toneWav16(0.5).length);
  });
});

describe('speech-to-text provider errors become the spec messages', () => {
  it('429 rate limit, quota, 5xx', async () => {
    v.openai.setAudio({ transcribeFail: 'rate_limit' });
    const limited = await transcribe(owner, id, toneWav16(0.5));
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'VOICE_RATE_LIMITED', message: messages.voice.rateLimited });

    v.openai.setAudio({ transcribeFail: 'quota' });
    const quota = await transcribe(owner, id, toneWav16(0.5));
    expect(quota.status).toBe(402);
    expect(quota.body.error).toMatchObject({ code: 'VOICE_QUOTA', message: 'Voice chat quota exceeded. Please check your OpenAI usage limits.' });

    v.openai.setAudio({ transcribeFail: 'server_error' });
    const failed = await transcribe(owner, id, toneWav16(0.5));
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({
      code: 'STT_ERROR',
      message: 'Speech-to-text error: The server had an error while processing your request.',
    });
    v.openai.setAudio({ transcribeFail: 'none' });
    await stillAnswers();
  });

  it('an unreachable provider is an STT_ERROR too', async () => {
    const s = await startTestServer({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', RATE_LIMIT_VOICE_PER_MINUTE: '1000' } });
    try {
      const u = await s.user();
      const pid = await createPersonality(u, 'Nobody Home');
      const res = await transcribe(u, pid, toneWav16(0.5));
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('STT_ERROR');
      expect(res.body.error.message).toMatch(/^Speech-to-text error: The speech-to-text service could not be reached/);
    } finally {
      await s.close();
    }
  });
});

describe('with no speech-to-text at all', () => {
  it('capabilities say so and how to configure it; transcribe answers 503, never a transcript', async () => {
    const s = await startTestServer({ env: { VOICE_OFFLINE_STT: 'off', VOICE_OFFLINE_TTS: 'off', RATE_LIMIT_VOICE_PER_MINUTE: '1000' } });
    try {
      const caps = await s.client().get('/api/voice/capabilities');
      expect(caps.body.stt).toEqual({ available: false, engine: null, approximate: false, howToConfigure: messages.voice.sttUnavailable });
      expect(caps.body.tts).toEqual({ default: 'browser', openai: false, elevenlabs: false });
      const u = await s.user();
      const pid = await createPersonality(u, 'Deaf');
      await makePublic(s.database.db, pid);
      const res = await transcribe(s.client(), pid, toneWav16(0.5));
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'STT_UNAVAILABLE', message: messages.voice.sttUnavailable });
      expect(res.body).not.toHaveProperty('text');
      // No server voice either: the client is told to use the browser's speech synthesis.
      const spoken = await speak(s.client(), pid, 'Hello there.');
      expect(spoken.status).toBe(503);
      expect(spoken.body.error).toMatchObject({ code: 'TTS_BROWSER', message: messages.voice.ttsBrowser });
    } finally {
      await s.close();
    }
  });
});
