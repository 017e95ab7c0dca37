// Speech-to-text on any OpenAI-compatible POST {base}/audio/transcriptions (OpenAI, or a
// self-hosted whisper server speaking the same API): multipart/form-data with the WAV as `file`.
import { networkError, openAIError, type SpeechToText } from './speech-types';

export interface OpenAISpeechToTextOptions {
  /** Ends in /v1. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

export function createOpenAISpeechToText(options: OpenAISpeechToTextOptions): SpeechToText {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
  return {
    engine: 'openai',
    approximate: false,
    async transcribe(wav, signal) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'speech.wav');
      form.append('model', options.model);
      form.append('response_format', 'json');
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
          body: form,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw networkError(err, 'The speech-to-text service');
      }
      if (!res.ok) throw await openAIError(res, 'Speech-to-text');
      let body: { text?: unknown };
      try {
        body = (await res.json()) as { text?: unknown };
      } catch (err) {
        throw networkError(err, 'The speech-to-text service');
      }
      return typeof body.text === 'string' ? body.text.trim() : '';
    },
  };
}
