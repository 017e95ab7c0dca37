// The OpenAI audio endpoints, real wire formats, for openai-fake.ts:
//   POST /v1/audio/transcriptions  multipart/form-data (file, model, ...) -> { "text": ... }
//   POST /v1/audio/speech          JSON { model, input, voice, response_format } -> audio bytes,
//                                  streamed in pieces (mp3 frames, or a WAV tone for "wav"/"pcm")
// Failures on demand, with OpenAI's own error bodies: 'rate_limit' (429 rate_limit_exceeded),
// 'quota' (429 insufficient_quota), 'server_error' (500); delays for latency benchmarks.
import http from 'node:http';
import Busboy from 'busboy';
import { silentMp3, speechSeconds, toneWav } from './fake-audio';

export type FakeAudioFailure = 'none' | 'rate_limit' | 'quota' | 'server_error';

export interface FakeAudioSettings {
  /** What transcriptions answer ('' : nothing recognised). */
  transcript: string;
  transcribeFail: FakeAudioFailure;
  speechFail: FakeAudioFailure;
  /** Before the transcription answers. */
  transcribeDelayMs: number;
  /** Before the first audio byte. */
  speechDelayMs: number;
  /** Add the WAV's length to each transcript ("... [120 s]"), to tell the pieces of a long file apart. */
  transcriptWithSeconds?: boolean;
  /** Transcription calls (counted from 0, all since start) that answer 500, once each. */
  transcribeFailCalls?: number[];
  /** Calls from this one on wait, unanswered, until the setting is cleared (a crash test's window). */
  transcribeHoldFrom?: number;
  /** What a request with a `prompt` (phonetic mode's verbatim transcription) answers, when set. */
  verbatimTranscript?: string;
}

export interface RecordedTranscription {
  model?: string;
  fileName?: string;
  fileType?: string;
  bytes: number;
  /** The uploaded file began with RIFF....WAVE. */
  wav: boolean;
  /** The WAV header's sample rate and channel count (when it is a WAV). */
  sampleRate?: number;
  channels?: number;
  authorization?: string;
  /** The `prompt` field, when sent. */
  prompt?: string;
}

export interface RecordedSpeech {
  body: { model?: string; input?: string; voice?: string; response_format?: string };
  authorization?: string;
  /** The caller closed the request before the audio was all sent (a cancelled synthesis). */
  closedEarly?: boolean;
}

export const DEFAULT_FAKE_TRANSCRIPT = 'Hello, who are you?';

export function defaultAudioSettings(): FakeAudioSettings {
  return { transcript: DEFAULT_FAKE_TRANSCRIPT, transcribeFail: 'none', speechFail: 'none', transcribeDelayMs: 0, speechDelayMs: 0 };
}

const ERRORS: Record<Exclude<FakeAudioFailure, 'none'>, { status: number; error: { message: string; type: string; code: string | null } }> = {
  rate_limit: {
    status: 429,
    error: { message: 'Rate limit reached for requests. Limit: 3 / min. Please try again in 20s.', type: 'requests', code: 'rate_limit_exceeded' },
  },
  quota: {
    status: 429,
    error: {
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    },
  },
  server_error: { status: 500, error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null } },
};

function sendError(res: http.ServerResponse, failure: Exclude<FakeAudioFailure, 'none'>) {
  const { status, error } = ERRORS[failure];
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { ...error, param: null } }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createAudioHandlers(state: { settings: FakeAudioSettings; transcriptions: RecordedTranscription[]; speeches: RecordedSpeech[] }) {
  /** Multipart is parsed from the request stream (call before anything reads the body). */
  function transcriptions(req: http.IncomingMessage, res: http.ServerResponse) {
    const record: RecordedTranscription = { bytes: 0, wav: false, authorization: req.headers.authorization };
    let head = Buffer.alloc(0);
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({ headers: req.headers, limits: { fileSize: 26 * 1024 * 1024 } });
    } catch {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Expected multipart/form-data', type: 'invalid_request_error' } }));
    }
    busboy.on('field', (name, value) => {
      if (name === 'model') record.model = value;
      if (name === 'prompt') record.prompt = value;
    });
    busboy.on('file', (_name, file, info) => {
      record.fileName = info.filename;
      record.fileType = info.mimeType;
      file.on('data', (d: Buffer) => {
        record.bytes += d.length;
        if (head.length < 44) head = Buffer.concat([head, d]).subarray(0, 44);
      });
    });
    busboy.on('close', async () => {
      record.wav = head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WAVE';
      if (record.wav && head.length >= 28) {
        record.channels = head.readUInt16LE(22);
        record.sampleRate = head.readUInt32LE(24);
      }
      const call = state.transcriptions.push(record) - 1;
      const s = state.settings;
      if (s.transcribeDelayMs > 0) await sleep(s.transcribeDelayMs);
      while (s.transcribeHoldFrom !== undefined && call >= s.transcribeHoldFrom && !res.destroyed) await sleep(50);
      if (s.transcribeFail !== 'none') return sendError(res, s.transcribeFail);
      if (s.transcribeFailCalls?.includes(call)) return sendError(res, 'server_error');
      if (!record.model || record.bytes === 0) {
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: "you must provide a model parameter and a file", type: 'invalid_request_error', code: null } }));
      }
      let text = record.prompt && s.verbatimTranscript !== undefined ? s.verbatimTranscript : s.transcript;
      if (s.transcriptWithSeconds && record.wav && record.sampleRate && record.channels) {
        text += ` [${Math.round((record.bytes - 44) / (record.sampleRate * record.channels * 2))} s]`;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
    });
    req.pipe(busboy);
  }

  async function speech(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    let body: RecordedSpeech['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'invalid JSON', type: 'invalid_request_error' } }));
    }
    const record: RecordedSpeech = { body, authorization: req.headers.authorization };
    state.speeches.push(record);
    res.once('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    const s = state.settings;
    if (s.speechDelayMs > 0) await sleep(s.speechDelayMs);
    if (s.speechFail !== 'none') return sendError(res, s.speechFail);
    if (typeof body.input !== 'string' || !body.input || !body.voice) {
      return void res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'input and voice are required', type: 'invalid_request_error', code: null } }));
    }
    // OpenAI's own limit on the input, in its words.
    if (body.input.length > 4096) {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            message: `[{'type': 'string_too_long', 'loc': ('body', 'input'), 'msg': 'String should have at most 4096 characters', 'input': '...', 'ctx': {'max_length': 4096}}]`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        }),
      );
    }
    const format = body.response_format ?? 'mp3';
    const seconds = speechSeconds(body.input);
    const audio = format === 'wav' || format === 'pcm' ? toneWav(seconds) : silentMp3(seconds);
    res.writeHead(200, { 'content-type': format === 'wav' ? 'audio/wav' : 'audio/mpeg', 'transfer-encoding': 'chunked' });
    await streamOut(res, audio);
  }

  return { transcriptions, speech };
}

/** Writes audio in ~4 KB pieces, yielding between them, as a streaming provider does. */
export async function streamOut(res: http.ServerResponse, audio: Uint8Array) {
  for (let at = 0; at < audio.length && !res.destroyed; at += 4096) {
    res.write(audio.subarray(at, at + 4096));
    await new Promise((r) => setImmediate(r));
  }
  res.end();
}
