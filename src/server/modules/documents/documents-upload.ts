// Multipart upload of one or several files, parsed as it streams (busboy) so limits act early:
// a declared or streamed body past the total cap gets 413 before the rest is read, a file past
// 10 MB is cut off and discarded (its result says so) while the other files still upload. Each
// file goes to storage as it arrives and is judged by content on the way (store-as-it-streams.ts),
// so none is held whole; an accepted one is recorded and queued, a refused one leaves nothing
// stored. Results come back per file, in order.
import Busboy from 'busboy';
import type { Context } from 'hono';
import type { AppEnv } from '../../auth/session';
import { requireViewer } from '../../auth/session';
import { errorBody } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import type { UploadResponse, UploadResult } from '../../../shared/schemas/documents';
import type { DocumentService } from './documents.service';
import { DocumentSniffer, type SniffResult } from './file-sniff';
import type { StreamingStore } from './store-as-it-streams';

type AcceptedFile = Extract<SniffResult, { ok: true }>;
import { feedMultipart } from '../../lib/multipart-feed';
import { watchForStall } from '../../lib/single-file-form';
import { cleanDisplayName } from './display-name';
import { AppError } from '../../lib/errors';

const FILE_MAX = limits.textUploadMaxBytes;
/** Every allowed file at its largest, plus room for multipart headers and fields. */
export const UPLOAD_BODY_MAX = FILE_MAX * limits.documentUploadMaxFiles + 1024 * 1024;

/** After an early 413, how much more of the body is read and thrown away before the connection is cut. */
const DISCARD_MAX_BYTES = UPLOAD_BODY_MAX;
const DISCARD_MAX_MS = 10_000;

/**
 * Answers 413 at once, then reads and discards what the client is still sending, for a bounded
 * time and size: closing with unread data would reset the connection and the client could lose
 * the answer. A client that keeps sending past that bound is cut off.
 */
function tooLarge(c: Context<AppEnv>, reader: ReadableStreamDefaultReader<Uint8Array> | undefined) {
  if (reader) void discardRest(reader);
  return c.json(errorBody('PAYLOAD_TOO_LARGE', messages.documents.uploadTooLarge), 413);
}

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>) {
  const deadline = Date.now() + DISCARD_MAX_MS;
  let discarded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
      if (discarded > DISCARD_MAX_BYTES || Date.now() > deadline) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    /* the client went away */
  }
}

export async function handleUpload(c: Context<AppEnv>, service: DocumentService, logger: Logger, personalityId: string) {
  const viewer = requireViewer(c.get('viewer'));
  // Who is asking is settled before a byte of the body is read.
  const personality = await service.ownedPersonality(viewer, personalityId);
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) throw new AppError('BAD_REQUEST', messages.documents.notMultipart);
  const body = c.req.raw.body;
  if (!body) throw new AppError('BAD_REQUEST', messages.documents.noFiles);
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > UPLOAD_BODY_MAX) return tooLarge(c, body.getReader());

  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      // One byte over the limit tells "too large" apart from "exactly 10 MB".
      limits: { fileSize: FILE_MAX + 1, files: limits.documentUploadMaxFiles * 4, fields: 10, fieldSize: 1024, parts: limits.documentUploadMaxFiles * 4 + 10 },
    });
  } catch {
    throw new AppError('BAD_REQUEST', messages.documents.notMultipart);
  }

  const results: (UploadResult | Promise<UploadResult>)[] = [];
  // Set when the request is cut short: files still arriving are dropped, never recorded.
  let aborted = false;
  let isPrivate = false;
  let fileCount = 0;
  const arriving = new Set<StreamingStore<SniffResult, AcceptedFile>>();
  // Documents are recorded one after another, in the order their files came.
  let chain: Promise<unknown> = Promise.resolve();

  busboy.on('field', (name, value) => {
    if (name === 'isPrivate') isPrivate = value === 'true' || value === '1' || value === 'on';
  });
  busboy.on('file', (_field, stream, info) => {
    fileCount++;
    const fileName = cleanDisplayName(info.filename);
    const sniffer = new DocumentSniffer(fileName);
    const refuse = (error: string) => {
      stream.resume();
      results.push({ fileName, ok: false, error });
    };
    if (fileCount > limits.documentUploadMaxFiles) return refuse(messages.documents.tooManyFiles(limits.documentUploadMaxFiles));
    if (!sniffer.kind) return refuse(messages.documents.unsupported(fileName));
    const privateNow = isPrivate;
    // Stored as it arrives and judged on the way: a file is never held whole.
    const upload = service.storeAsItStreams(personality, fileName, stream, { maxBytes: FILE_MAX, sniffer, accept: (verdict): verdict is AcceptedFile => verdict.ok });
    arriving.add(upload);
    const result = upload.outcome.then(async (stored): Promise<UploadResult> => {
      arriving.delete(upload);
      if (!stored.ok) {
        if (stored.reason === 'too-large') return { fileName, ok: false, error: messages.documents.tooLarge(fileName) };
        if (stored.reason === 'refused' && !stored.verdict.ok) return { fileName, ok: false, error: stored.verdict.error };
        if (!aborted) logger.error('storing an uploaded document failed', stored.reason === 'failed' ? stored.error : stored.reason);
        return { fileName, ok: false, error: messages.documents.uploadFailed };
      }
      if (aborted) {
        await service.discardStored(upload.key).catch(() => {});
        return { fileName, ok: false, error: messages.documents.uploadFailed };
      }
      const { kind } = stored.verdict;
      const recorded = chain.then(() =>
        service.recordStored(personality, { key: upload.key, fileName, kind, sizeBytes: stored.sizeBytes, contentHash: stored.contentHash, isPrivate: privateNow }),
      );
      chain = recorded.catch(() => {});
      try {
        return { fileName, ok: true, document: await recorded };
      } catch (err) {
        if (err instanceof AppError && err.status < 500) return { fileName, ok: false, error: err.message };
        if (err instanceof AppError && err.code === 'INSUFFICIENT_STORAGE') {
          // The person is told plainly; the operator needs to know as well.
          logger.warn(`a document was refused: the disk holding DATA_DIR is nearly full (${err.details?.freeBytes ?? '?'} bytes free)`);
          return { fileName, ok: false, error: err.message };
        }
        logger.error(`upload of a document failed`, err);
        return { fileName, ok: false, error: messages.documents.uploadFailed };
      }
    });
    results.push(result);
  });

  // Feed the body to the parser, counting bytes: past the cap, stop reading and answer 413.
  // A body that stops arriving is given up after the upload idle time (408, single-file-form.ts).
  const watched = watchForStall(body);
  const reader = watched.reader;
  const fed = await feedMultipart(reader, busboy, UPLOAD_BODY_MAX);
  if (fed !== 'done') {
    aborted = true;
    for (const upload of arriving) upload.abort();
    if (watched.stalled()) throw watched.error();
    if (fed === 'too-large') return tooLarge(c, reader);
    throw new AppError('BAD_REQUEST', messages.documents.uploadMalformed);
  }

  const settled = await Promise.all(results);
  if (settled.length === 0) throw new AppError('BAD_REQUEST', messages.documents.noFiles);
  const uploaded = settled.filter((r) => r.ok).length;
  const response: UploadResponse = { results: settled, uploaded, failed: settled.length - uploaded };
  return c.json(response, 200);
}
