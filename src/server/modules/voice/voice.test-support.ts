// Helpers for the voice tests (not a test file): WAV files built in the test (a tone, silence, a
// sentence from the embedded synthesizer resampled to 16 kHz), a raw upload client, and a server
// wired to the loopback OpenAI and ElevenLabs fakes.
import { startTestServer, type TestClient, type TestServer, type TestServerOptions } from '../../test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { startFakeElevenLabs, type FakeElevenLabs } from '../../../../tests/fakes/elevenlabs-fake';
import { fliteSynthesize } from '../../ai/speech/flite-text-to-speech';
import { createTurnStreamParser, type TurnSpeechEvent, type VoiceTurnEvent } from '../../../shared/voice-turn-stream';

export function wav16(samples: Int16Array, sampleRate = 16000, channels = 1): Uint8Array {
  const out = Buffer.alloc(44 + samples.length * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + samples.length * 2, 4);
  out.write('WAVE', 8);
  out.write('fmt ', 12);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2 * channels, 28);
  out.writeUInt16LE(2 * channels, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, 44 + i * 2);
  return new Uint8Array(out);
}

/** A mono tone (16 kHz unless told): loud enough not to count as silence. 8 kHz makes long files small. */
export function toneWav16(seconds = 1, sampleRate = 16000): Uint8Array {
  const n = Math.round(sampleRate * seconds);
  const s = new Int16Array(n);
  for (let i = 0; i < n; i++) s[i] = Math.round(Math.sin((2 * Math.PI * 300 * i) / sampleRate) * 8000);
  return wav16(s, sampleRate);
}

export function silentWav16(seconds = 1): Uint8Array {
  return wav16(new Int16Array(Math.round(16000 * seconds)));
}

/** A sentence spoken by the embedded synthesizer (8 kHz), resampled to the browser's 16 kHz. */
export async function spokenWav16(text: string): Promise<Uint8Array> {
  const wav = Buffer.from(await fliteSynthesize(text));
  const rate = wav.readUInt32LE(24);
  let at = 12;
  while (wav.toString('latin1', at, at + 4) !== 'data') at += 8 + wav.readUInt32LE(at + 4);
  const n = wav.readUInt32LE(at + 4) / 2;
  const src = new Int16Array(n);
  for (let i = 0; i < n; i++) src[i] = wav.readInt16LE(at + 8 + i * 2);
  const m = Math.floor((n * 16000) / rate);
  const out = new Int16Array(m);
  for (let j = 0; j < m; j++) {
    const x = (j * rate) / 16000;
    const i = Math.floor(x);
    const a = src[i] ?? 0;
    const b = src[i + 1] ?? a;
    out[j] = Math.round(a + (b - a) * (x - i));
  }
  return wav16(out);
}

export async function transcribe(client: TestClient, personalityId: string, body: Uint8Array | string, headers: Record<string, string> = {}) {
  const res = await client.raw(`/api/personalities/${personalityId}/voice/transcribe`, {
    method: 'POST',
    headers: { 'content-type': 'audio/wav', ...headers },
    body: typeof body === 'string' ? body : Buffer.from(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** `headers`: e.g. x-forwarded-for, for a server that trusts 127.0.0.1 as its proxy (another visitor's address). */
export async function speak(client: TestClient, personalityId: string, text: string, headers: Record<string, string> = {}) {
  const res = await client.raw(`/api/personalities/${personalityId}/voice/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text }),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  let body: any;
  if (res.headers.get('content-type')?.includes('json')) body = JSON.parse(Buffer.from(bytes).toString('utf8'));
  return { status: res.status, headers: res.headers, bytes, body };
}

/** One open-mic turn (POST .../voice/turn): the recording and the chat's context as multipart. */
export async function voiceTurn(client: TestClient, personalityId: string, wav: Uint8Array, request?: Record<string, unknown>, signal?: AbortSignal) {
  const form = new FormData();
  if (request) form.append('request', JSON.stringify(request));
  form.append('audio', new Blob([Buffer.from(wav)], { type: 'audio/wav' }), 'turn.wav');
  return client.raw(`/api/personalities/${personalityId}/voice/turn`, { method: 'POST', body: form, signal });
}

/**
 * A voice turn's spoken sentences, in the order they came: a streamed sentence's pieces
 * (`speech-more`) joined into its `speech` event's audio, so `audio` is always the whole sentence.
 */
export function speechOf(events: VoiceTurnEvent[]): TurnSpeechEvent[] {
  const sentences: TurnSpeechEvent[] = [];
  const open = new Map<number, { event: TurnSpeechEvent; parts: Buffer[] }>();
  for (const e of events) {
    if (e.type === 'speech') {
      sentences.push(e);
      if ('audio' in e && e.more) open.set(e.index, { event: e, parts: [Buffer.from(e.audio, 'base64')] });
    } else if (e.type === 'speech-more') {
      const sentence = open.get(e.index);
      if (!sentence) throw new Error(`speech-more for sentence ${e.index}, which is not open`);
      sentence.parts.push(Buffer.from(e.audio, 'base64'));
      if (!e.more) {
        open.delete(e.index);
        Object.assign(sentence.event, { audio: Buffer.concat(sentence.parts).toString('base64'), more: false });
      }
    }
  }
  if (open.size) throw new Error(`sentences never ended: ${[...open.keys()].join(', ')}`);
  return sentences;
}

/** A whole turn's answer: its status, and its events (NDJSON) or its JSON error. */
export async function voiceTurnEvents(client: TestClient, personalityId: string, wav: Uint8Array, request?: Record<string, unknown>) {
  const res = await voiceTurn(client, personalityId, wav, request);
  const text = await res.text();
  if (!res.headers.get('content-type')?.includes('ndjson')) return { status: res.status, headers: res.headers, events: [] as VoiceTurnEvent[], body: JSON.parse(text) };
  const events = createTurnStreamParser().feed(text, true);
  return { status: res.status, headers: res.headers, events, body: undefined };
}

export interface VoiceTestServer {
  server: TestServer;
  openai: FakeOpenAI;
  elevenlabs: FakeElevenLabs;
  close(): Promise<void>;
}

/** A test server whose OpenAI (speech-to-text, speech) and ElevenLabs are the loopback fakes. */
export async function startVoiceServer(options: TestServerOptions = {}, { chatModel = false } = {}): Promise<VoiceTestServer> {
  const openai = await startFakeOpenAI();
  const elevenlabs = await startFakeElevenLabs();
  const server = await startTestServer({
    ...options,
    env: {
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: 'sk-fake-openai',
      ELEVENLABS_BASE_URL: elevenlabs.url,
      ELEVENLABS_API_KEY: 'fake-elevenlabs-key',
      RATE_LIMIT_VOICE_PER_MINUTE: '10000',
      RATE_LIMIT_SPEECH_PER_MINUTE: '10000',
      // `chatModel`: the chat answers with the fake's model (open mic's turn), not the offline responder.
      ...(chatModel ? { LLM_BASE_URL: openai.url, LLM_API_KEY: 'sk-fake-llm', LLM_MODEL: 'fake-model' } : {}),
      ...options.env,
    },
  });
  return {
    server,
    openai,
    elevenlabs,
    async close() {
      await server.close();
      await openai.close();
      await elevenlabs.close();
    },
  };
}

export const isWav = (b: Uint8Array) => Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WAVE';
/** An MPEG audio frame sync at the start. */
export const isMp3 = (b: Uint8Array) => b.length > 4 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0;
