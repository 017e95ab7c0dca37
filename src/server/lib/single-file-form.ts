// Reads a multipart form with at most one file and a few short fields, as it streams (busboy): a
// body past the file's limit stops being read at once (the caller answers 413). readSingleFileForm keeps the file in memory, for small uploads
// used at once rather than stored (a voice sample sent on to be cloned); streamSingleFileForm hands
// the file's stream on as it arrives (an audio document going to storage, store-as-it-streams.ts).
// Either way the fields sent before the file are there when it is judged.
// Every upload body (these forms, raw audio in voice-upload.ts, documents-upload.ts) is read through
// watchForStall: a body that stops arriving is given up after the idle time with 408, and what it
// had sent is let go, instead of sitting in memory until Node's request timeout.
import type { Readable } from 'node:stream';
import Busboy from 'busboy';
import { HTTPException } from 'hono/http-exception';
import { feedMultipart } from './multipart-feed';

/** UPLOAD_IDLE_TIMEOUT_MS's default: a phone on a poor connection pauses seconds, not half a minute. */
export const DEFAULT_UPLOAD_IDLE_TIMEOUT_MS = 30_000;
let idleTimeoutMs = DEFAULT_UPLOAD_IDLE_TIMEOUT_MS;

/** Set once at start-up from UPLOAD_IDLE_TIMEOUT_MS (start.ts), beside the HTTP server's own timeouts. */
export function setUploadIdleTimeout(ms: number): void {
  idleTimeoutMs = ms;
}

export function uploadIdleTimeout(): number {
  return idleTimeoutMs;
}

/**
 * An upload's body stopped arriving: answered 408 (app.onError answers an HTTPException with its
 * status and message). The connection is then closed, as the rest of that body will not be read.
 */
export class UploadStalledError extends HTTPException {
  constructor(idleMs: number) {
    const seconds = Math.max(1, Math.round(idleMs / 1000));
    super(408, { message: `The upload stopped arriving (nothing for ${seconds} second${seconds === 1 ? '' : 's'}), so it was cancelled. Please try again.` });
    this.name = 'UploadStalledError';
  }
}

export interface StallWatchedBody {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The body was given up for silence: the read that was waiting failed, and the body is cancelled. */
  stalled(): boolean;
  /** The error to answer with when stalled() (its message names the idle time). */
  error(): UploadStalledError;
}

/**
 * The body's reader, failing a read that waits longer than the idle time for the client's next
 * bytes (and cancelling the body). Only time spent waiting on the client counts: a reader that
 * pauses on its own (busboy waiting for storage to take a file part) is never the one blamed.
 */
export function watchForStall(body: ReadableStream<Uint8Array>, idleMs = idleTimeoutMs): StallWatchedBody {
  const source = body.getReader();
  let stalled = false;
  const watched = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let timer: NodeJS.Timeout | undefined;
        const silence = new Promise<'stalled'>((resolve) => {
          timer = setTimeout(() => resolve('stalled'), idleMs);
        });
        try {
          const next = await Promise.race([source.read(), silence]);
          if (next === 'stalled') {
            stalled = true;
            controller.error(new UploadStalledError(idleMs));
            // Whatever the body still queues is dropped, and its pending read ends.
            void source.cancel().catch(() => {});
          } else if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (err) {
          controller.error(err);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        return source.cancel(reason);
      },
    },
    // Nothing is read ahead: the clock runs only while the reader is waiting for the client.
    { highWaterMark: 0 },
  );
  return { reader: watched.getReader(), stalled: () => stalled, error: () => new UploadStalledError(idleMs) };
}

export interface SingleFileForm {
  fields: Record<string, string>;
  /** The first file part, when there was one (its name as the browser sent it). */
  file?: { name: string; bytes: Buffer };
}

export type SingleFileFormResult = { ok: true; form: SingleFileForm } | { ok: false; reason: SingleFileFormProblem };

export interface FormOptions {
  /** The longest field (4 KB unless told; open mic's turn carries an anonymous visitor's history). */
  fieldMaxBytes?: number;
}

export type SingleFileFormProblem = 'not-multipart' | 'too-large' | 'malformed';

/**
 * The form as it streams: `onFile` gets the file part's stream (with the fields sent before it) and
 * must consume it; what it returns comes back as `file`, also when the form turned out broken or too
 * large, so the caller can stop whatever it started. The body stops being read past the file's
 * limit plus room for the framing and fields.
 */
export async function streamSingleFileForm<T>(
  request: Request,
  maxFileBytes: number,
  onFile: (stream: Readable, name: string, fields: Record<string, string>) => T,
  options: FormOptions = {},
): Promise<{ ok: true; fields: Record<string, string>; file?: T } | { ok: false; reason: SingleFileFormProblem; file?: T }> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType) || !request.body) return { ok: false, reason: 'not-multipart' };
  const fieldMax = options.fieldMaxBytes ?? 4096;
  const bodyMax = maxFileBytes + 64 * 1024 + (options.fieldMaxBytes ?? 0);
  const body = watchForStall(request.body);
  const reader = body.reader;
  if (Number(request.headers.get('content-length') ?? '0') > bodyMax) {
    void reader.cancel().catch(() => {});
    return { ok: false, reason: 'too-large' };
  }
  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      // One byte over the limit tells "too large" apart from "exactly the limit".
      limits: { fileSize: maxFileBytes + 1, files: 1, fields: 8, fieldSize: fieldMax, parts: 10 },
    });
  } catch {
    return { ok: false, reason: 'not-multipart' };
  }
  const fields: Record<string, string> = {};
  let file: T | undefined;
  busboy.on('field', (name, value) => {
    fields[name] = value;
  });
  busboy.on('file', (_field, stream, info) => {
    file = onFile(stream, info.filename ?? '', fields);
  });
  const fed = await feedMultipart(reader, busboy, bodyMax);
  // busboy is destroyed by then, so a file part still arriving has ended with an error: a file
  // streamed on to storage leaves nothing behind, one kept in memory is let go with the form.
  if (body.stalled()) throw body.error();
  if (fed === 'too-large') void reader.cancel().catch(() => {});
  if (fed !== 'done') return { ok: false, reason: fed, file };
  return { ok: true, fields, file };
}

export async function readSingleFileForm(request: Request, maxFileBytes: number, options: FormOptions = {}): Promise<SingleFileFormResult> {
  let kept: Buffer[] | undefined;
  const reading = streamSingleFileForm(request, maxFileBytes, (stream, name) => {
    const current = { name, parts: [] as Buffer[], size: 0, closed: new Promise<void>((resolve) => stream.on('close', resolve)) };
    kept = current.parts;
    stream.on('data', (d: Buffer) => {
      current.size += d.length;
      // Past the limit nothing more is kept: the answer will be 413.
      if (current.size <= maxFileBytes) current.parts.push(d);
      else current.parts.length = 0;
    });
    return current;
  }, options);
  // A form that is not read whole keeps nothing of its file.
  const read = await reading.catch((err: unknown) => {
    if (kept) kept.length = 0;
    throw err;
  });
  if (!read.ok) {
    if (kept) kept.length = 0;
    return read;
  }
  const { fields, file: received } = read;
  if (!received) return { ok: true, form: { fields } };
  await received.closed;
  if (received.size > maxFileBytes) return { ok: false, reason: 'too-large' };
  const bytes = Buffer.concat(received.parts);
  received.parts.length = 0;
  return { ok: true, form: { fields, file: { name: received.name, bytes } } };
}
