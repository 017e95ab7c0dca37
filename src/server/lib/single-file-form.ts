// Reads a multipart form with at most one file and a few short fields, as it streams (busboy):
// the file is kept in memory only up to its limit, and a body past the limit stops being read at
// once (the caller answers 413). For small uploads of one file that are used at once rather than
// stored (a voice sample sent on to be cloned, a character card), whose fields are read before the
// file is judged. Documents are streamed to storage instead (store-as-it-streams.ts).
import Busboy from 'busboy';
import { feedMultipart } from './multipart-feed';

export interface SingleFileForm {
  fields: Record<string, string>;
  /** The first file part, when there was one (its name as the browser sent it). */
  file?: { name: string; bytes: Buffer };
}

export type SingleFileFormResult = { ok: true; form: SingleFileForm } | { ok: false; reason: 'not-multipart' | 'too-large' | 'malformed' };

export async function readSingleFileForm(request: Request, maxFileBytes: number): Promise<SingleFileFormResult> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType) || !request.body) return { ok: false, reason: 'not-multipart' };
  const bodyMax = maxFileBytes + 64 * 1024;
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
      limits: { fileSize: maxFileBytes + 1, files: 1, fields: 8, fieldSize: 4096, parts: 10 },
    });
  } catch {
    return { ok: false, reason: 'not-multipart' };
  }
  const fields: Record<string, string> = {};
  let file: { name: string; parts: Buffer[]; size: number; closed: Promise<void> } | undefined;
  busboy.on('field', (name, value) => {
    fields[name] = value;
  });
  busboy.on('file', (_field, stream, info) => {
    const current = { name: info.filename ?? '', parts: [] as Buffer[], size: 0, closed: Promise.resolve() };
    current.closed = new Promise<void>((resolve) => stream.on('close', resolve));
    stream.on('data', (d: Buffer) => {
      current.size += d.length;
      // Past the limit nothing more is kept: the answer will be 413.
      if (current.size <= maxFileBytes) current.parts.push(d);
      else current.parts.length = 0;
    });
    file = current;
  });
  const fed = await feedMultipart(reader, busboy, bodyMax);
  if (fed === 'too-large') void reader.cancel().catch(() => {});
  if (fed !== 'done') return { ok: false, reason: fed };
  if (!file) return { ok: true, form: { fields } };
  const received: { name: string; parts: Buffer[]; size: number; closed: Promise<void> } = file;
  await received.closed;
  if (received.size > maxFileBytes) return { ok: false, reason: 'too-large' };
  const bytes = Buffer.concat(received.parts);
  received.parts.length = 0;
  return { ok: true, form: { fields, file: { name: received.name, bytes } } };
}
