// ElevenLabs instant voice cloning through the official SDK: POST {ELEVENLABS_BASE_URL}/v1/voices/add
// (multipart: name, description, files[]) returns the new voice's id; DELETE /v1/voices/{id}
// removes it when its personality is deleted or gets another clone.
import { elevenLabsClient, elevenLabsErrorDetail, elevenLabsHttpError } from './elevenlabs-client';
import { networkError, SpeechProviderError } from './speech-types';

export interface VoiceSample {
  bytes: Uint8Array;
  fileName: string;
  mimeType: string;
}

export interface VoiceCloning {
  clone(input: { name: string; description?: string; sample: VoiceSample }, signal?: AbortSignal): Promise<string>;
  remove(voiceId: string): Promise<void>;
}

/** The plan does not include instant cloning (ElevenLabs says so in its error). */
export class CloningUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CloningUnavailableError';
  }
}

function providerError(err: unknown): Error {
  const answered = elevenLabsHttpError(err);
  if (answered) {
    const { status, message: full } = elevenLabsErrorDetail(answered);
    const message = full.slice(0, 300);
    if (/instant.voice.clon|can_not_use_instant_voice_cloning|subscription/i.test(`${status} ${message}`)) return new CloningUnavailableError(message);
    const kind = /quota/i.test(status) ? 'quota' : answered.statusCode === 429 ? 'rate_limit' : 'failed';
    return new SpeechProviderError(kind, message, answered.statusCode);
  }
  return networkError(err, 'ElevenLabs');
}

export function createElevenLabsVoiceCloning(options: { baseUrl?: string; apiKey: string }): VoiceCloning {
  const client = elevenLabsClient(options, 120);
  return {
    async clone({ name, description, sample }, signal) {
      try {
        const file = new File([new Uint8Array(sample.bytes)], sample.fileName, { type: sample.mimeType });
        const res = await (await client()).voices.ivc.create({ name, description, files: [file] }, { abortSignal: signal, maxRetries: 0 });
        if (!res.voiceId) throw new SpeechProviderError('failed', 'ElevenLabs returned no voice id');
        return res.voiceId;
      } catch (err) {
        throw providerError(err);
      }
    },
    async remove(voiceId) {
      try {
        await (await client()).voices.delete(voiceId, { maxRetries: 1 });
      } catch (err) {
        // Already gone at the provider: nothing left to remove.
        if (elevenLabsHttpError(err)?.statusCode === 404) return;
        throw providerError(err);
      }
    },
  };
}
