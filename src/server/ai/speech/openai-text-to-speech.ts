// Speech on any OpenAI-compatible POST {base}/audio/speech, streamed through as it arrives (mp3).
import { networkError, openAIError, type SpeechSynthesizer } from './speech-types';

export interface OpenAITextToSpeechOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

export function createOpenAITextToSpeech(options: OpenAITextToSpeechOptions): SpeechSynthesizer {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/audio/speech`;
  return {
    provider: 'openai',
    async synthesize(text, voice, signal) {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({ model: options.model, input: text, voice, response_format: 'mp3' }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw networkError(err, 'The speech service');
      }
      if (!res.ok || !res.body) throw await openAIError(res, 'Speech');
      return { mime: 'audio/mpeg', stream: res.body };
    },
  };
}
