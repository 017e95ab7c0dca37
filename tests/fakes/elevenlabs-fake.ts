// A loopback ElevenLabs text-to-speech server (the wire format the official SDK speaks):
//   POST /v1/text-to-speech/{voice_id}/stream?output_format=mp3_44100_128
//   headers xi-api-key; JSON { text, model_id, ... } -> audio/mpeg, chunked, real mp3 frames.
// Failures on demand with ElevenLabs' own error bodies: 'rate_limit' (429
// too_many_concurrent_requests), 'quota' (401 quota_exceeded), 'server_error' (500). Switch from
// outside with POST /__fake/elevenlabs {"fail":"quota"}. Instant voice cloning too:
//   POST /v1/voices/add (multipart name, description, files) -> { voice_id }; DELETE /v1/voices/{id}.
import http from 'node:http';
import Busboy from 'busboy';
import type { AddressInfo } from 'node:net';
import { silentMp3, speechSeconds, toneWav } from './fake-audio';
import { streamOut } from './openai-audio-fake';
import { attachConvai, type FakeConvai } from './elevenlabs-convai-fake';

export type FakeElevenLabsFailure = 'none' | 'rate_limit' | 'quota' | 'server_error';

export interface FakeElevenLabsSettings {
  fail: FakeElevenLabsFailure;
  /** Before the first audio byte. */
  delayMs: number;
  /** POST /v1/voices/add: 'subscription' is ElevenLabs' refusal on a plan without instant cloning. */
  cloneFail?: 'none' | 'subscription' | 'server_error';
}

/** One instant-clone request as the fake received it (multipart /v1/voices/add). */
export interface RecordedClone {
  apiKey: string | undefined;
  name?: string;
  description?: string;
  files: { fileName: string; mimeType: string; bytes: number; head: string }[];
  voiceId?: string;
}

export interface RecordedElevenLabsRequest {
  voiceId: string;
  outputFormat: string | null;
  apiKey: string | undefined;
  body: { text?: string; model_id?: string; [k: string]: unknown };
}

export interface FakeElevenLabs {
  /** Use as ELEVENLABS_BASE_URL (no /v1: the SDK adds it). */
  url: string;
  settings: FakeElevenLabsSettings;
  requests: RecordedElevenLabsRequest[];
  clones: RecordedClone[];
  /** Voice ids removed with DELETE /v1/voices/{id}. */
  deletedVoices: string[];
  /** Conversational agents: signed URLs and the convai websocket (elevenlabs-convai-fake.ts). */
  convai: FakeConvai;
  set(settings: Partial<FakeElevenLabsSettings>): void;
  close(): Promise<void>;
}

const FAILURES: Record<Exclude<FakeElevenLabsFailure, 'none'>, { status: number; detail: { status: string; message: string } }> = {
  rate_limit: {
    status: 429,
    detail: { status: 'too_many_concurrent_requests', message: 'Too many concurrent requests. Your current subscription allows 2 concurrent requests.' },
  },
  quota: {
    status: 401,
    detail: { status: 'quota_exceeded', message: 'This request exceeds your quota of 10000. You have 12 credits remaining, while 48 credits are required for this request.' },
  },
  server_error: { status: 500, detail: { status: 'internal_server_error', message: 'An internal server error occurred.' } },
};

const ROUTE = /^\/v1\/text-to-speech\/([^/]+)\/stream$/;
const VOICE = /^\/v1\/voices\/([^/]+)$/;

/** ElevenLabs' multipart voices/add, read from the whole body. */
function readClone(req: http.IncomingMessage, body: Buffer): Promise<RecordedClone> {
  return new Promise((resolve, reject) => {
    const record: RecordedClone = { apiKey: req.headers['xi-api-key'] as string | undefined, files: [] };
    const busboy = Busboy({ headers: req.headers });
    busboy.on('field', (name, value) => {
      if (name === 'name') record.name = value;
      if (name === 'description') record.description = value;
    });
    busboy.on('file', (_name, file, info) => {
      const parts: Buffer[] = [];
      file.on('data', (d: Buffer) => parts.push(d));
      file.on('end', () => {
        const all = Buffer.concat(parts);
        record.files.push({ fileName: info.filename ?? '', mimeType: info.mimeType, bytes: all.length, head: all.subarray(0, 4).toString('latin1') });
      });
    });
    busboy.on('close', () => resolve(record));
    busboy.on('error', reject);
    busboy.end(body);
  });
}

export async function startFakeElevenLabs(options: Partial<FakeElevenLabsSettings> & { port?: number } = {}): Promise<FakeElevenLabs> {
  const settings: FakeElevenLabsSettings = { fail: options.fail ?? 'none', delayMs: options.delayMs ?? 0 };
  const requests: RecordedElevenLabsRequest[] = [];
  const clones: RecordedClone[] = [];
  const deletedVoices: string[] = [];
  let baseUrl = '';
  // Declared before the handler below uses it (the server answers only after listen).
  let convai: FakeConvai;
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(parts).toString('utf8');
      if (convai.handle(req, res, url)) return;
      if (req.method === 'POST' && url.pathname === '/__fake/elevenlabs') {
        try {
          Object.assign(settings, JSON.parse(raw || '{}'));
        } catch {
          return void res.writeHead(400).end();
        }
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(settings));
      }
      if (req.method === 'POST' && url.pathname === '/v1/voices/add') {
        const clone = await readClone(req, Buffer.concat(parts)).catch(() => undefined);
        if (!clone) return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Invalid multipart body' }));
        clones.push(clone);
        if (!clone.apiKey) return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: { status: 'needs_authorization', message: 'No API key.' } }));
        if (settings.cloneFail === 'subscription') {
          return void res.writeHead(403, { 'content-type': 'application/json' }).end(
            JSON.stringify({ detail: { status: 'can_not_use_instant_voice_cloning', message: 'Your subscription does not include instant voice cloning. Please upgrade your plan.' } }),
          );
        }
        if (settings.cloneFail === 'server_error') return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: FAILURES.server_error.detail }));
        if (!clone.name || clone.files.length === 0) {
          return void res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: [{ loc: ['body', 'files'], msg: 'field required', type: 'value_error.missing' }] }));
        }
        clone.voiceId = `cloned${clones.length}${Math.random().toString(36).slice(2, 8)}`;
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ voice_id: clone.voiceId, requires_verification: false }));
      }
      const voice = VOICE.exec(url.pathname);
      if (req.method === 'DELETE' && voice) {
        deletedVoices.push(decodeURIComponent(voice[1]!));
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
      }
      const match = ROUTE.exec(url.pathname);
      if (req.method !== 'POST' || !match) {
        return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
      }
      let body: RecordedElevenLabsRequest['body'];
      try {
        body = JSON.parse(raw);
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: { status: 'invalid_json', message: 'Invalid JSON' } }));
      }
      const apiKey = req.headers['xi-api-key'] as string | undefined;
      requests.push({ voiceId: decodeURIComponent(match[1]!), outputFormat: url.searchParams.get('output_format'), apiKey, body });
      if (settings.delayMs > 0) await new Promise((r) => setTimeout(r, settings.delayMs));
      if (!apiKey) {
        return void res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ detail: { status: 'needs_authorization', message: 'Neither authorization header nor xi-api-key received, please provide one.' } }));
      }
      if (settings.fail !== 'none') {
        const f = FAILURES[settings.fail];
        return void res.writeHead(f.status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: f.detail }));
      }
      if (typeof body.text !== 'string' || !body.text) {
        return void res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: [{ loc: ['body', 'text'], msg: 'field required', type: 'value_error.missing' }] }));
      }
      const format = url.searchParams.get('output_format') ?? 'mp3_44100_128';
      const seconds = speechSeconds(body.text);
      const audio = format.startsWith('pcm_') ? toneWav(seconds, Number(format.slice(4)) || 16000).subarray(44) : silentMp3(seconds);
      res.writeHead(200, { 'content-type': format.startsWith('pcm_') ? 'application/octet-stream' : 'audio/mpeg', 'transfer-encoding': 'chunked' });
      await streamOut(res, audio);
    });
  });
  convai = attachConvai(server, () => baseUrl);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: baseUrl,
    convai,
    settings,
    requests,
    clones,
    deletedVoices,
    set(next) {
      Object.assign(settings, next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
