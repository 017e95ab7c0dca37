// Reads a raw audio body with the 10 MB limit enforced while it streams: a declared or streamed
// length past the limit is answered 413 without reading (much) more; what is already sent is
// drained for a bounded time so the client gets the answer instead of a reset. A body that stops
// arriving is given up after the upload idle time (408), its bytes let go (single-file-form.ts).
import { AppError } from '../../lib/errors';
import { watchForStall } from '../../lib/single-file-form';
import { messages } from '../../../shared/messages';
import { AUDIO_MAX_BYTES } from './voice.service';

const VOICE_UPLOAD = /^\/api\/personalities\/[^/]+\/voice\/transcribe\/?$/;

/** Raw audio uploads skip the API's small JSON body limit (they have their own, below). */
export function isVoiceUploadPath(method: string, path: string): boolean {
  return method === 'POST' && VOICE_UPLOAD.test(path);
}

const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

function tooLarge(bytes: number): AppError {
  const mb = (bytes / (1024 * 1024)).toFixed(1);
  return new AppError('AUDIO_TOO_LARGE', messages.voice.audioTooLarge(mb), { details: { bytes, maxBytes: AUDIO_MAX_BYTES } });
}

/** Reads what is left (bounded) and returns the total seen, to name the size in the message. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, seen: number): Promise<number> {
  const deadline = Date.now() + DRAIN_MAX_MS;
  let total = seen;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.byteLength;
      if (total > DRAIN_MAX_BYTES || Date.now() > deadline) {
        await reader.cancel();
        return total;
      }
    }
  } catch {
    return total;
  }
}

export async function readAudioBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  const body = request.body;
  if (!body) return new Uint8Array(0);
  const watched = watchForStall(body);
  const reader = watched.reader;
  if (Number.isFinite(declared) && declared > AUDIO_MAX_BYTES) {
    void drain(reader, 0);
    throw tooLarge(declared);
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // What arrived is let go now, not when this request's last reference is.
      parts.length = 0;
      if (watched.stalled()) throw watched.error();
      throw new AppError('BAD_AUDIO', messages.voice.truncatedAudio, { details: { reason: 'truncated' } });
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > AUDIO_MAX_BYTES) throw tooLarge(await drain(reader, size));
    parts.push(chunk.value);
  }
  return Buffer.concat(parts, size);
}
