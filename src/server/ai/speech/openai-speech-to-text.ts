// Speech-to-text on any OpenAI-compatible POST {base}/audio/transcriptions (OpenAI, or a
// self-hosted whisper server speaking the same API): multipart/form-data with the WAV as `file`.
import { AUDIO_MIME, type AudioFormat } from './audio-file';
import { networkError, openAIError, type SpeechToText } from './speech-types';

export interface OpenAISpeechToTextOptions {
  /** Ends in /v1. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

/** Phonetic mode (spec: the `phonetic` flag): whisper follows the prompt's style, so it keeps slips. */
export const VERBATIM_PROMPT =
  'Transcribe exactly what is said, word for word, as it is pronounced, including mispronounced, repeated or unfinished words. Do not correct pronunciation, grammar or word choice.';

export function createOpenAISpeechToText(options: OpenAISpeechToTextOptions): SpeechToText {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
  return {
    engine: 'openai',
    approximate: false,
    fileFormats: ['wav', 'mp3', 'm4a'],
    transcribe: (wav, signal, opts) => send(wav, 'wav', signal, opts?.verbatim ? VERBATIM_PROMPT : undefined),
    transcribeFile: (piece, signal) => send(piece.bytes, piece.format, signal),
    warm,
  };

  /**
   * The first transcription after start-up cost 300-400 ms more than the next ones: fetch's code
   * loads on first use, the multipart body is encoded for the first time, and the connection is
   * new. A free GET of the models list (a whisper server without it answers 404, which is just as
   * good) and one encoded form pay for all three before the person has finished speaking.
   */
  async function warm(): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(44)], { type: AUDIO_MIME.wav }), 'speech.wav');
    await new Request(url, { method: 'POST', body: form }).arrayBuffer().catch(() => undefined);
    try {
      const res = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/models`, {
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer();
    } catch {
      // Only a warm-up: the turn itself reports a service that cannot be reached.
    }
  }

  async function send(bytes: Uint8Array, format: AudioFormat, signal?: AbortSignal, prompt?: string): Promise<string> {
    const form = new FormData();
    // The name's extension tells whisper servers the container; the bytes were checked already.
    form.append('file', new Blob([new Uint8Array(bytes)], { type: AUDIO_MIME[format] }), `speech.${format}`);
    form.append('model', options.model);
    form.append('response_format', 'json');
    if (prompt) form.append('prompt', prompt);
    // A long piece of a speech takes longer than a chat recording.
    const timeout = AbortSignal.timeout(options.timeoutMs ?? (format === 'wav' && bytes.length < 4 * 1024 * 1024 ? 60_000 : 300_000));
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        body: form,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw unreachable(err, signal);
    }
    if (!res.ok) throw await openAIError(res, 'Speech-to-text');
    let body: { text?: unknown };
    try {
      body = (await res.json()) as { text?: unknown };
    } catch (err) {
      throw unreachable(err, signal);
    }
    return typeof body.text === 'string' ? body.text.trim() : '';
  }
}

/**
 * The service could not be reached, or its answer broke off. Cancelled by the caller (`signal`: the
 * person withdrew the turn, left the page) it is no failure of the service: the cancellation is
 * thrown as it is, for the caller to tell apart.
 */
function unreachable(err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return err;
  return networkError(err, 'The speech-to-text service');
}
