// What the voice module needs from a speech provider, whichever one providers.ts chose.
import type { AudioFormat, AudioPiece } from './audio-file';
import { providerErrorText, redactSecrets } from '../provider-error-text';

export interface SpeechToText {
  readonly engine: 'openai' | 'pocketsphinx';
  /** Offline recognition is approximate (the UI labels it). */
  readonly approximate: boolean;
  /**
   * The words in a 16-bit PCM WAV ('' when nothing was recognised). Throws SpeechProviderError.
   * `verbatim` (phonetic mode): as pronounced, without correcting words or grammar.
   */
  transcribe(wav: Uint8Array, signal?: AbortSignal, options?: { verbatim?: boolean }): Promise<string>;
  /** The formats transcribeFile reads (the offline recognizer reads WAV only). */
  readonly fileFormats: readonly AudioFormat[];
  /** The words in one piece of an uploaded audio file (audio-file.ts). Throws SpeechProviderError. */
  transcribeFile(piece: AudioPiece, signal?: AbortSignal): Promise<string>;
  /**
   * Readies the client before a call's first turn (open mic): the HTTP client's code and a
   * connection to the service, so the first recording does not pay for them. Never throws.
   */
  warm?(): Promise<void>;
}

export type SynthProvider = 'embedded' | 'festival' | 'openai' | 'elevenlabs';

export interface SynthesizedAudio {
  mime: string;
  /** The audio as it arrives (the upstream status is already known to be a success). */
  stream: ReadableStream<Uint8Array>;
}

export interface SpeechSynthesizer {
  readonly provider: SynthProvider;
  /**
   * Resolves once the provider has accepted the request; throws SpeechProviderError otherwise.
   * `format: 'wav'`: the same voice as uncompressed WAV where the provider offers it (the browser
   * decodes it at once; open mic's turn asks for it), else its usual format.
   */
  synthesize(text: string, voice: string, signal?: AbortSignal, options?: { format?: 'wav' }): Promise<SynthesizedAudio>;
}

export type SpeechFailureKind = 'rate_limit' | 'quota' | 'failed';

/**
 * A provider's refusal or failure, reduced to what the client can act on. Its message may be shown
 * (spec: "Speech-to-text error: {message}") and is logged, so anything in it that looks like a key
 * or token is replaced here, whichever provider said it.
 */
export class SpeechProviderError extends Error {
  constructor(
    readonly kind: SpeechFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(redactSecrets(message));
    this.name = 'SpeechProviderError';
  }
}

/**
 * Reads an OpenAI-style error body ({ error: { message, type, code } }) into a SpeechProviderError.
 * Compatible servers and proxies echo keys in their messages ("Incorrect API key provided: sk-..."):
 * the message is the redacted one (provider-error-text.ts).
 */
export async function openAIError(res: Response, what: string): Promise<SpeechProviderError> {
  const raw = await res.text().catch(() => '');
  let code = '';
  try {
    const body = JSON.parse(raw) as { error?: { type?: unknown; code?: unknown } | string };
    if (body.error && typeof body.error === 'object') code = `${String(body.error.code ?? '')} ${String(body.error.type ?? '')}`;
  } catch {
    /* not JSON: the text itself, below */
  }
  const text = providerErrorText(raw, 300);
  // An HTML error page (a proxy's 502) or a JSON body without a message: only the status is worth saying.
  const message = (/^[<{]/.test(text) ? '' : text) || `${what} failed (HTTP ${res.status})`;
  if (/insufficient_quota|quota/i.test(code) || /exceeded your current quota/i.test(message)) {
    return new SpeechProviderError('quota', message, res.status);
  }
  if (res.status === 429 || /rate limit exceeded/i.test(message)) return new SpeechProviderError('rate_limit', message, res.status);
  return new SpeechProviderError('failed', message, res.status);
}

/** A network failure (refused, reset, timed out) as a provider failure. */
export function networkError(err: unknown, what: string): SpeechProviderError {
  if (err instanceof SpeechProviderError) return err;
  const reason = err instanceof Error ? (err.name === 'TimeoutError' ? 'timed out' : err.message) : String(err);
  return new SpeechProviderError('failed', `${what} could not be reached (${reason})`);
}

export function bytesStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
