// The ElevenLabs SDK client every ElevenLabs provider uses (speech, agents, cloning), and how its
// error bodies read: { detail: { status, message } } or { detail: "text" }.
//
// The SDK is imported on first use, not at start-up: it takes about 1.3 s to import (hundreds of
// generated modules), and most servers never configure ElevenLabs. Every server start, and every
// test file that starts one, paid for it.
import type { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { providerErrorText } from '../provider-error-text';

type ElevenLabsSdk = typeof import('@elevenlabs/elevenlabs-js');

let sdkLoading: Promise<ElevenLabsSdk> | undefined;
/** Set once the SDK is loaded; only its client throws its errors, so it is loaded by any catch. */
let sdk: ElevenLabsSdk | undefined;

function loadSdk(): Promise<ElevenLabsSdk> {
  sdkLoading ??= import('@elevenlabs/elevenlabs-js').then(
    (loaded) => (sdk = loaded),
    (err: unknown) => {
      sdkLoading = undefined; // a later request tries again
      throw err;
    },
  );
  return sdkLoading;
}

/**
 * A function giving the client, made on first call. No automatic retries: credits are reserved
 * once per request, and a retry would bill twice.
 */
export function elevenLabsClient(options: { apiKey?: string; baseUrl?: string }, timeoutInSeconds: number): () => Promise<ElevenLabsClient> {
  let client: ElevenLabsClient | undefined;
  // ElevenLabs is configured: load the SDK now, in the background, so the first request does not wait.
  setTimeout(() => loadSdk().catch(() => {}), 0).unref();
  return async () => {
    if (client) return client;
    const { ElevenLabsClient } = await loadSdk();
    client ??= new ElevenLabsClient({
      apiKey: options.apiKey ?? 'unset',
      ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
      maxRetries: 0,
      timeoutInSeconds,
    });
    return client;
  };
}

/** The SDK's error for an HTTP answer (it has a status code), as opposed to a network failure. */
export function elevenLabsHttpError(err: unknown): ElevenLabsError | undefined {
  return sdk && err instanceof sdk.ElevenLabsError && err.statusCode ? err : undefined;
}

/**
 * ElevenLabs' own status word and message of a failed request; the message shortened and with
 * anything that looks like a key or token replaced (it is shown and logged).
 */
export function elevenLabsErrorDetail(err: ElevenLabsError): { status: string; message: string } {
  const detail = (err.body as { detail?: { status?: unknown; message?: unknown } | string } | undefined)?.detail;
  const status = typeof detail === 'object' && typeof detail?.status === 'string' ? detail.status : '';
  const said = typeof detail === 'object' ? detail?.message : detail;
  const message = typeof said === 'string' ? providerErrorText(said, 300) : '';
  return { status, message: message || `ElevenLabs failed (HTTP ${err.statusCode})` };
}
