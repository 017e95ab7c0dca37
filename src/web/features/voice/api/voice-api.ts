// The voice calls: what the server can do, speech-to-text of a recording, and speech for a
// sentence. Recordings and audio are raw bytes, so these use fetch, with the API's errors turned
// into ApiError like every other call (the server's messages are the spec's).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap, watchAnswer } from '../../../lib/api-client';
import { messages } from '../../../../shared/messages';
import type { PronunciationReport } from '../../../../shared/schemas/pronunciation';

export const voiceCapabilitiesQuery = queryOptions({
  queryKey: ['voice', 'capabilities'] as const,
  queryFn: () => unwrap(api.api.voice.capabilities.$get()),
  staleTime: 5 * 60_000,
});

export function useVoiceCapabilities() {
  return useQuery(voiceCapabilitiesQuery);
}

export async function apiError(res: Response, fallback: string): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  return new ApiError(res.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? fallback);
}

const voicePath = (personalityId: string, what: 'transcribe' | 'speech' | 'warm') => `/api/personalities/${encodeURIComponent(personalityId)}/voice/${what}`;

export interface Transcript {
  text: string;
  engine: string;
  approximate: boolean;
  /** Phonetic mode (a pronunciation coach): how each word was pronounced. */
  pronunciation?: PronunciationReport;
}

export async function transcribe(personalityId: string, wav: Uint8Array<ArrayBuffer>, signal?: AbortSignal): Promise<Transcript> {
  let res: Response;
  try {
    res = await fetch(voicePath(personalityId, 'transcribe'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'audio/wav' },
      body: new Blob([wav], { type: 'audio/wav' }),
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    // No answer at all: say the server could not be reached ("Failed to process recorded audio" is
    // for the server failing to convert it).
    throw new ApiError(0, 'NETWORK', messages.openMic.networkError);
  }
  // A 401 (signed out elsewhere) or 404 (the personality gone or unshared) tells the app, as every
  // other call does: the conversation then gives way to the signed-out or "not available" view.
  watchAnswer(res.status, voicePath(personalityId, 'transcribe'));
  if (!res.ok) throw await apiError(res, messages.voice.processRecordingFailed);
  const body = (await res.json()) as Transcript;
  if (typeof body?.text !== 'string') throw new ApiError(502, 'STT_EMPTY', messages.voice.sttEmpty);
  return body;
}

export interface SpokenAudio {
  blob: Blob;
  /** Provider x per-voice volume multiplier (spec section 9), from the server. */
  multiplier: number;
  provider: string;
}

/** A sentence's audio that broke off while it arrived (the provider cut it): which voice was speaking. */
export class BrokenSpeech extends Error {
  constructor(
    readonly provider: string,
    cause: unknown,
  ) {
    super('The speech broke off while it arrived', { cause });
    this.name = 'BrokenSpeech';
  }
}

/**
 * Speech for one sentence in the personality's voice. Throws ApiError for a refusal (TTS_FALLBACK /
 * TTS_BROWSER: the browser should speak), BrokenSpeech when the audio broke off on the way (its
 * provider is read from the headers first, so the caller knows which voice failed).
 */
export async function synthesize(personalityId: string, text: string, signal?: AbortSignal): Promise<SpokenAudio> {
  let res: Response;
  try {
    res = await fetch(voicePath(personalityId, 'speech'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(0, 'NETWORK', messages.voice.playbackFailed);
  }
  watchAnswer(res.status, voicePath(personalityId, 'speech'));
  if (!res.ok) throw await apiError(res, messages.voice.playbackFailed);
  const provider = res.headers.get('x-voice-provider') ?? 'unknown';
  const multiplier = Number(res.headers.get('x-voice-volume') ?? '1');
  let blob: Blob;
  try {
    blob = await res.blob();
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new BrokenSpeech(provider, err);
  }
  return { blob, multiplier: Number.isFinite(multiplier) && multiplier > 0 ? multiplier : 1, provider };
}

/**
 * An open-mic call is starting: the server readies speech-to-text and the chat for its first turn
 * while the person speaks. Best effort: a refusal here is met again, and reported, by the turn.
 */
export async function warmVoice(personalityId: string): Promise<void> {
  await fetch(voicePath(personalityId, 'warm'), { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
}
