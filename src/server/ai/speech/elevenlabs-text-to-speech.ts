// ElevenLabs speech through the official SDK's streaming endpoint
// (POST {ELEVENLABS_BASE_URL}/v1/text-to-speech/{voice_id}/stream), mp3 as it arrives.
import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { networkError, SpeechProviderError, type SpeechSynthesizer } from './speech-types';

export interface ElevenLabsOptions {
  baseUrl?: string;
  apiKey?: string;
  model: string;
}

export function createElevenLabsTextToSpeech(options: ElevenLabsOptions): SpeechSynthesizer {
  const client = new ElevenLabsClient({
    apiKey: options.apiKey ?? 'unset',
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
    // Credits are reserved once per request: the SDK must not send it again by itself.
    maxRetries: 0,
    timeoutInSeconds: 30,
  });
  return {
    provider: 'elevenlabs',
    async synthesize(text, voice, signal) {
      try {
        const stream = await client.textToSpeech.stream(
          voice,
          { text, modelId: options.model, outputFormat: 'mp3_44100_128' },
          { abortSignal: signal, maxRetries: 0 },
        );
        return { mime: 'audio/mpeg', stream };
      } catch (err) {
        if (err instanceof ElevenLabsError && err.statusCode) {
          const detail = (err.body as { detail?: { status?: string; message?: string } | string } | undefined)?.detail;
          const status = typeof detail === 'object' ? (detail?.status ?? '') : '';
          const message = (typeof detail === 'object' ? detail?.message : detail) ?? `ElevenLabs failed (HTTP ${err.statusCode})`;
          const kind = /quota/i.test(status) ? 'quota' : err.statusCode === 429 ? 'rate_limit' : 'failed';
          throw new SpeechProviderError(kind, String(message).slice(0, 300), err.statusCode);
        }
        throw networkError(err, 'ElevenLabs');
      }
    },
  };
}
