// ElevenLabs speech through the official SDK's streaming endpoint
// (POST {ELEVENLABS_BASE_URL}/v1/text-to-speech/{voice_id}/stream), mp3 as it arrives.
import { elevenLabsClient, elevenLabsErrorDetail, elevenLabsHttpError } from './elevenlabs-client';
import { networkError, SpeechProviderError, type SpeechSynthesizer } from './speech-types';

export interface ElevenLabsOptions {
  baseUrl?: string;
  apiKey?: string;
  model: string;
}

export function createElevenLabsTextToSpeech(options: ElevenLabsOptions): SpeechSynthesizer {
  const client = elevenLabsClient(options, 30);
  return {
    provider: 'elevenlabs',
    async synthesize(text, voice, signal) {
      try {
        const stream = await (await client()).textToSpeech.stream(
          voice,
          { text, modelId: options.model, outputFormat: 'mp3_44100_128' },
          { abortSignal: signal, maxRetries: 0 },
        );
        return { mime: 'audio/mpeg', stream };
      } catch (err) {
        const answered = elevenLabsHttpError(err);
        if (answered) {
          const { status, message } = elevenLabsErrorDetail(answered);
          const kind = /quota/i.test(status) ? 'quota' : answered.statusCode === 429 ? 'rate_limit' : 'failed';
          throw new SpeechProviderError(kind, message.slice(0, 300), answered.statusCode);
        }
        throw networkError(err, 'ElevenLabs');
      }
    },
  };
}
