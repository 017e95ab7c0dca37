// Speech providers that misbehave, seen from an anonymous visitor of a public personality and from
// the server's log: an OpenAI-compatible server that echoes the key it was sent in its 401 (as
// proxies and self-hosted servers do), ElevenLabs and Azure doing the same, and speech streams the
// provider cuts mid-sentence. Each provider is its project fake behind a loopback proxy that adds
// the misbehaviour (real HTTP, the providers' own error bodies); everything else passes through.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { startFakeAzureSpeech, type FakeAzure } from '../../../../tests/fakes/azure-speech-fake';
import { silentMp3 } from '../../../../tests/fakes/fake-audio';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { speak, startVoiceServer, toneWav16, transcribe, type VoiceTestServer } from './voice.test-support';

const OPENAI_KEY = 'sk-openai-secret-123456';
const ELEVENLABS_KEY = 'sk_3f9a2c7e1b4d8f6a0c5e9b2d7f1a3c8e4b6d0f2a9c7e5b1d';
const AZURE_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const KEYS = [OPENAI_KEY, ELEVENLABS_KEY, AZURE_KEY];

type Mode = 'pass' | 'echo-key' | 'cut';

interface MisbehavingProxy {
  url: string;
  mode: Mode;
  target: string;
  close(): Promise<void>;
}

/**
 * In front of a fake: 'echo-key' answers the provider's 401 with the key it was sent in the
 * message; 'cut' starts the audio (200, 3000 bytes) and then closes the connection.
 */
async function startProxy(provider: 'openai' | 'elevenlabs' | 'azure'): Promise<MisbehavingProxy> {
  const proxy: MisbehavingProxy = { url: '', mode: 'pass', target: '', close: async () => {} };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const speech = provider === 'openai' ? path === '/v1/audio/speech' : provider === 'elevenlabs' ? /^\/v1\/text-to-speech\/[^/]+\/stream$/.test(path) : false;
    const audio = speech || path === '/v1/audio/transcriptions' || path.startsWith('/speech/recognition/');
    if (audio && proxy.mode === 'echo-key') {
      req.resume();
      if (provider === 'openai') {
        const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
        const error = { message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', code: 'invalid_api_key' };
        return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      }
      if (provider === 'elevenlabs') {
        const detail = { status: 'invalid_api_key', message: `Invalid API key: ${String(req.headers['xi-api-key'])}` };
        return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ detail }));
      }
      const error = { code: '401', message: `Access denied due to invalid subscription key ${String(req.headers['ocp-apim-subscription-key'])}.` };
      return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
    }
    if (speech && proxy.mode === 'cut') {
      req.resume();
      const mp3 = silentMp3(4);
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'transfer-encoding': 'chunked' });
      res.write(mp3.subarray(0, 3000));
      setTimeout(() => res.socket?.destroy(), 100);
      return;
    }
    const target = new URL(proxy.target);
    const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return proxy;
}

let v: VoiceTestServer;
let azure: FakeAzure;
let openai: MisbehavingProxy;
let eleven: MisbehavingProxy;
let azureProxy: MisbehavingProxy;
let visitor: TestClient;
let openaiId: string;
let elevenId: string;
let coachId: string;

beforeAll(async () => {
  [openai, eleven, azureProxy, azure] = await Promise.all([startProxy('openai'), startProxy('elevenlabs'), startProxy('azure'), startFakeAzureSpeech()]);
  azureProxy.target = azure.url;
  v = await startVoiceServer({
    env: {
      OPENAI_BASE_URL: `${openai.url}/v1`,
      OPENAI_API_KEY: OPENAI_KEY,
      ELEVENLABS_BASE_URL: eleven.url,
      ELEVENLABS_API_KEY: ELEVENLABS_KEY,
      AZURE_SPEECH_KEY: AZURE_KEY,
      AZURE_SPEECH_ENDPOINT: azureProxy.url,
    },
  });
  openai.target = v.openai.url;
  eleven.target = v.elevenlabs.url;
  const owner = await v.server.user();
  openaiId = await createPersonality(owner, 'Public Nova', { voiceProvider: 'openai', voice: 'nova' });
  elevenId = await createPersonality(owner, 'Public Eleven', { voiceProvider: 'elevenlabs', voice: 'female' });
  coachId = await createPersonality(owner, 'Public Accent Coach');
  for (const id of [openaiId, elevenId, coachId]) await makePublic(v.server.database.db, id);
  visitor = v.server.client(); // not signed in
});
afterAll(async () => {
  await v?.close();
  await Promise.all([openai?.close(), eleven?.close(), azureProxy?.close(), azure?.close()]);
});
afterEach(() => {
  openai.mode = eleven.mode = azureProxy.mode = 'pass';
  vi.restoreAllMocks();
});

const leaks = (text: string) => KEYS.filter((k) => text.includes(k));
const logSince = (from: number) => v.server.logs.slice(from).join('\n');

describe('a provider that echoes the key: nothing it says carries the key to a visitor or the log', () => {
  it('OpenAI speech-to-text: the spec\'s "Speech-to-text error: {message}" with the message redacted, no provider text in details', async () => {
    openai.mode = 'echo-key';
    const from = v.server.logs.length;
    const res = await transcribe(visitor, openaiId, toneWav16(1));
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('STT_ERROR');
    expect(res.body.error.message).toMatch(/^Speech-to-text error: Incorrect API key provided: \[redacted\]/);
    expect(res.body.error.details).toBeUndefined();
    expect(leaks(JSON.stringify(res.body))).toEqual([]);
    expect(logSince(from)).toContain('Incorrect API key provided: [redacted]');
    expect(leaks(logSince(from))).toEqual([]);
  });

  it('OpenAI speech: TTS_FALLBACK (the browser speaks) with only the failure\'s kind in details', async () => {
    openai.mode = 'echo-key';
    const from = v.server.logs.length;
    const res = await speak(visitor, openaiId, 'Are you there?');
    expect(res.status).toBe(502);
    expect(res.body.error).toEqual({ code: 'TTS_FALLBACK', message: messages.voice.ttsFallback, details: { kind: 'failed' } });
    expect(logSince(from)).toContain('openai speech failed, the browser speaks instead: Incorrect API key provided: [redacted]');
    expect(leaks(logSince(from))).toEqual([]);
  });

  it('ElevenLabs speech: TTS_ERROR with the spec\'s message; the reason (redacted) in the log only', async () => {
    eleven.mode = 'echo-key';
    const from = v.server.logs.length;
    const res = await speak(visitor, elevenId, 'Are you there?');
    expect(res.status).toBe(502);
    expect(res.body.error).toEqual({ code: 'TTS_ERROR', message: messages.voice.ttsError, details: { provider: 'elevenlabs', kind: 'failed' } });
    expect(logSince(from)).toContain('elevenlabs speech failed: Invalid API [redacted]');
    expect(leaks(logSince(from))).toEqual([]);
  });

  it('Azure pronunciation: the chat log says plainly that the service is not available; its words (redacted) in the log only', async () => {
    azureProxy.mode = 'echo-key';
    v.openai.setAudio({ transcript: 'Good morning', verbatimTranscript: 'Good morning' });
    const from = v.server.logs.length;
    const res = await transcribe(visitor, coachId, toneWav16(1));
    expect(res.status).toBe(200);
    expect(res.body.text).toBe('Good morning');
    expect(res.body.pronunciation).toMatchObject({ available: false, message: messages.voice.pronunciationServiceDown });
    expect(JSON.stringify(res.body)).not.toContain('Azure Speech answered');
    expect(logSince(from)).toContain('pronunciation assessment failed: Azure Speech answered 401: Access denied due to invalid subscription [redacted]');
    expect(leaks(JSON.stringify(res.body) + logSince(from))).toEqual([]);
  });
});

describe('a speech stream the provider cuts mid-sentence', () => {
  for (const provider of ['openai', 'elevenlabs'] as const) {
    it(`${provider}: the client's read fails (no whole-looking file); one redacted line through the logger, nothing on stderr, nothing unhandled`, async () => {
      (provider === 'openai' ? openai : eleven).mode = 'cut';
      const consoleError = vi.spyOn(console, 'error');
      const consoleInfo = vi.spyOn(console, 'info');
      const unhandled: unknown[] = [];
      const onUnhandled = (err: unknown) => unhandled.push(err);
      process.on('uncaughtException', onUnhandled);
      process.on('unhandledRejection', onUnhandled);
      try {
        const from = v.server.logs.length;
        const res = await visitor.raw(`/api/personalities/${provider === 'openai' ? openaiId : elevenId}/voice/speech`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'A sentence long enough to take a few seconds to say out loud, so the cut comes mid-way.' }),
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-voice-provider')).toBe(provider);
        await expect(res.arrayBuffer()).rejects.toThrow();
        await new Promise((r) => setTimeout(r, 300));
        const lines = v.server.logs.slice(from).filter((l) => /broke off/.test(l));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`WARN ${provider} speech broke off mid-stream: terminated`));
        expect(lines[0]).not.toMatch(/\n|localPort|remotePort|at /);
        expect(consoleError).not.toHaveBeenCalled();
        expect(consoleInfo).not.toHaveBeenCalled();
        expect(unhandled).toEqual([]);
      } finally {
        process.off('uncaughtException', onUnhandled);
        process.off('unhandledRejection', onUnhandled);
      }
      // The next sentence is spoken as usual.
      (provider === 'openai' ? openai : eleven).mode = 'pass';
      expect((await speak(visitor, provider === 'openai' ? openaiId : elevenId, 'Back again.')).status).toBe(200);
    });
  }
});
