// A loopback OpenAI-compatible server for tests, benchmarks and by hand (`npm run fakes`).
// POST /v1/embeddings answers the real wire format with deterministic vectors: a hashed bag of
// words (lowercased word -> a dimension and a sign), L2-normalized, so texts sharing words are
// close by cosine similarity and the same text always gets the same vector. It also serves
// POST /v1/chat/completions through openai-chat-fake's handler, so one URL can stand in for both.
// Behaviour per server: delayMs before answering, `hold` (requests wait until released: a job
// stuck mid-way), failStatus (answer that HTTP error). Every embeddings request is recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChatHandler, DEFAULT_FAKE_REPLY, type FakeChatSettings, type RecordedChatRequest } from './openai-chat-fake';
import { createAudioHandlers, defaultAudioSettings, type FakeAudioSettings, type RecordedSpeech, type RecordedTranscription } from './openai-audio-fake';

export interface FakeEmbeddingSettings {
  dimensions: number;
  delayMs: number;
  /** While true, embeddings requests are held open (until set({ hold: false }) or close). */
  hold: boolean;
  /** Answer every embeddings request with this HTTP status (0: answer normally). */
  failStatus: number;
}

export interface RecordedEmbeddingRequest {
  body: { model?: string; input?: string | string[]; [k: string]: unknown };
  authorization: string | undefined;
}

export interface FakeOpenAI {
  /** Base URL (ends in /v1): use as LLM_BASE_URL or OPENAI_BASE_URL. */
  url: string;
  /** Embeddings requests, in arrival order. */
  requests: RecordedEmbeddingRequest[];
  chatRequests: RecordedChatRequest[];
  settings: FakeEmbeddingSettings;
  chatSettings: FakeChatSettings;
  set(settings: Partial<FakeEmbeddingSettings>): void;
  /** Audio (openai-audio-fake.ts): POST /v1/audio/transcriptions and /v1/audio/speech. */
  audioSettings: FakeAudioSettings;
  transcriptions: RecordedTranscription[];
  speeches: RecordedSpeech[];
  setAudio(settings: Partial<FakeAudioSettings>): void;
  /** GET /v1/models requests so far (open mic's speech-to-text warm-up asks for it). */
  readonly modelListings: number;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions extends Partial<FakeEmbeddingSettings> {
  port?: number;
  chat?: Partial<FakeChatSettings>;
  audio?: Partial<FakeAudioSettings>;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The fake's embedding of a text (exported so tests can build query vectors the same way). */
export function fakeEmbedding(text: string, dimensions = 256): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    let h = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) {
      h ^= word.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    v[h % dimensions]! += h & 0x80000000 ? -1 : 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  // An empty text still gets a valid (non-zero) vector.
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const settings: FakeEmbeddingSettings = {
    dimensions: options.dimensions ?? 256,
    delayMs: options.delayMs ?? 0,
    hold: options.hold ?? false,
    failStatus: options.failStatus ?? 0,
  };
  const chatSettings: FakeChatSettings = { mode: 'reply', reply: DEFAULT_FAKE_REPLY, delayMs: 0, ...options.chat };
  const requests: RecordedEmbeddingRequest[] = [];
  const chatRequests: RecordedChatRequest[] = [];
  let released: (() => void)[] = [];
  let modelListings = 0;
  const handleChat = createChatHandler({ settings: chatSettings, requests: chatRequests, onAbort: () => {} });
  const audioSettings: FakeAudioSettings = { ...defaultAudioSettings(), ...options.audio };
  const transcriptions: RecordedTranscription[] = [];
  const speeches: RecordedSpeech[] = [];
  const audio = createAudioHandlers({ settings: audioSettings, transcriptions, speeches });

  async function handleEmbeddings(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    let body: RecordedEmbeddingRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'invalid JSON' } }));
    }
    requests.push({ body, authorization: req.headers.authorization });
    if (settings.hold) await new Promise<void>((resolve) => released.push(resolve));
    if (settings.delayMs > 0) await new Promise((r) => setTimeout(r, settings.delayMs));
    if (res.destroyed) return;
    if (settings.failStatus) {
      return void res
        .writeHead(settings.failStatus, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'The fake embedding model failed on purpose', type: 'server_error' } }));
    }
    const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : null;
    if (!inputs || !inputs.every((x) => typeof x === 'string')) {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'input must be a string or an array of strings' } }));
    }
    // OpenAI's own limits per request, with its words: 2048 inputs, 300,000 tokens (counted here as
    // a token per four characters, as its tokenizer roughly does for English).
    if (inputs.length > 2048) {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            message: `Invalid 'input': array too long. Expected an array with maximum length 2048, but got an array with length ${inputs.length} instead.`,
            type: 'invalid_request_error',
            param: 'input',
            code: 'array_above_max_length',
          },
        }),
      );
    }
    const tokens = Math.ceil(inputs.reduce((n: number, t: string) => n + t.length, 0) / 4);
    if (tokens > 300_000) {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: { message: `Requested ${tokens} tokens, max 300000 tokens per request`, type: 'max_tokens_per_request', param: null, code: 'max_tokens_per_request' },
        }),
      );
    }
    const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text, settings.dimensions) }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: body.model ?? 'fake-embedding', usage: { prompt_tokens: 0, total_tokens: 0 } }));
  }

  const server = http.createServer((req, res) => {
    // Multipart is parsed as it streams, before anything else reads the body.
    if (req.method === 'POST' && (req.url ?? '').split('?')[0] === '/v1/audio/transcriptions') return void audio.transcriptions(req, res);
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'POST' && path === '/v1/embeddings') return void handleEmbeddings(req, res, raw);
      if (req.method === 'POST' && path === '/v1/chat/completions') return void handleChat(req, res, raw);
      if (req.method === 'POST' && path === '/v1/audio/speech') return void audio.speech(req, res, raw);
      // Switch audio behaviour from outside (browser flows): POST /__fake/audio {"speechFail":"server_error"}.
      if (req.method === 'POST' && path === '/__fake/audio') {
        try {
          Object.assign(audioSettings, JSON.parse(raw || '{}'));
        } catch {
          return void res.writeHead(400).end();
        }
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(audioSettings));
      }
      if (req.method === 'GET' && path === '/v1/models') {
        modelListings += 1;
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model' }, { id: 'fake-embedding', object: 'model' }] }));
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const releaseAll = () => {
    const waiting = released;
    released = [];
    for (const r of waiting) r();
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests,
    settings,
    chatSettings,
    audioSettings,
    transcriptions,
    speeches,
    get modelListings() {
      return modelListings;
    },
    setAudio(next) {
      Object.assign(audioSettings, next);
    },
    set(next) {
      Object.assign(settings, next);
      if (!settings.hold) releaseAll();
    },
    close: () =>
      new Promise<void>((resolve) => {
        releaseAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
