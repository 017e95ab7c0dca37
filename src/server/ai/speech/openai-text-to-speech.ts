// Speech on any OpenAI-compatible POST {base}/audio/speech, streamed through as it arrives (mp3,
// or WAV when asked: the same voice, which the browser decodes without an MP3 decoder's start-up).
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
    async synthesize(text, voice, signal, asked) {
      const wav = asked?.format === 'wav';
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({ model: options.model, input: text, voice, response_format: wav ? 'wav' : 'mp3' }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw networkError(err, 'The speech service');
      }
      if (!res.ok || !res.body) throw await openAIError(res, 'Speech');
      return { mime: wav ? 'audio/wav' : 'audio/mpeg', stream: res.body };
    },
  };
}
