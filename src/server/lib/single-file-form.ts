// Reads a multipart form with at most one file and a few short fields, as it streams (busboy): a
// body past the file's limit stops being read at once (the caller answers 413). readSingleFileForm keeps the file in memory, for small uploads
// used at once rather than stored (a voice sample sent on to be cloned); streamSingleFileForm hands
// the file's stream on as it arrives (an audio document going to storage, store-as-it-streams.ts).
// Either way the fields sent before the file are there when it is judged.
import type { Readable } from 'node:stream';
import Busboy from 'busboy';
import { feedMultipart } from './multipart-feed';

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
  const reader = request.body.getReader();
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
  if (fed === 'too-large') void reader.cancel().catch(() => {});
  if (fed !== 'done') return { ok: false, reason: fed, file };
  return { ok: true, fields, file };
}

export async function readSingleFileForm(request: Request, maxFileBytes: number, options: FormOptions = {}): Promise<SingleFileFormResult> {
  const read = await streamSingleFileForm(request, maxFileBytes, (stream, name) => {
    const current = { name, parts: [] as Buffer[], size: 0, closed: new Promise<void>((resolve) => stream.on('close', resolve)) };
    stream.on('data', (d: Buffer) => {
      current.size += d.length;
      // Past the limit nothing more is kept: the answer will be 413.
      if (current.size <= maxFileBytes) current.parts.push(d);
      else current.parts.length = 0;
    });
    return current;
  }, options);
  if (!read.ok) return read;
  const { fields, file: received } = read;
  if (!received) return { ok: true, form: { fields } };
  await received.closed;
  if (received.size > maxFileBytes) return { ok: false, reason: 'too-large' };
  const bytes = Buffer.concat(received.parts);
  received.parts.length = 0;
  return { ok: true, form: { fields, file: { name: received.name, bytes } } };
}
