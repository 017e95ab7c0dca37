// The ElevenLabs SDK client every ElevenLabs provider uses (speech, agents, cloning), and how its
// error bodies read: { detail: { status, message } } or { detail: "text" }.
import { ElevenLabsClient, type ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { providerErrorText } from '../provider-error-text';

/** No automatic retries: credits are reserved once per request, and a retry would bill twice. */
export function elevenLabsClient(options: { apiKey?: string; baseUrl?: string }, timeoutInSeconds: number): ElevenLabsClient {
  return new ElevenLabsClient({
    apiKey: options.apiKey ?? 'unset',
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
    maxRetries: 0,
    timeoutInSeconds,
  });
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
