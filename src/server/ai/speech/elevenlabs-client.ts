// The ElevenLabs SDK client every ElevenLabs provider uses (speech, agents, cloning), and how its
// error bodies read: { detail: { status, message } } or { detail: "text" }.
import { ElevenLabsClient, type ElevenLabsError } from '@elevenlabs/elevenlabs-js';

/** No automatic retries: credits are reserved once per request, and a retry would bill twice. */
export function elevenLabsClient(options: { apiKey?: string; baseUrl?: string }, timeoutInSeconds: number): ElevenLabsClient {
  return new ElevenLabsClient({
    apiKey: options.apiKey ?? 'unset',
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
    maxRetries: 0,
    timeoutInSeconds,
  });
}

/** ElevenLabs' own status word and message of a failed request. */
export function elevenLabsErrorDetail(err: ElevenLabsError): { status: string; message: string } {
  const detail = (err.body as { detail?: { status?: string; message?: string } | string } | undefined)?.detail;
  const status = typeof detail === 'object' ? (detail?.status ?? '') : '';
  const message = (typeof detail === 'object' ? detail?.message : detail) ?? `ElevenLabs failed (HTTP ${err.statusCode})`;
  return { status, message: String(message) };
}
