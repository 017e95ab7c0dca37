// Reads the one file of a multipart card upload while it streams (busboy): bounded to 10 MB
// (one byte more tells "too large" apart from "exactly 10 MB"), the rest of an oversized body is
// not read. The uploaded name is never used: the content decides what the file is.
import Busboy from 'busboy';
import { feedMultipart } from '../../lib/multipart-feed';
import { watchForStall } from '../../lib/single-file-form';
import type { Context } from 'hono';
import type { AppEnv } from '../../auth/session';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { CARD_FILE_FIELD } from '../../../shared/schemas/character-card';
import { CARD_MAX_BYTES } from './card-parse';

/** Multipart headers and the field name around the file. */
const BODY_SLACK = 64 * 1024;

const IMPORT_PATH = /^\/api\/personalities\/import(\/preview)?\/?$/;

/** Exempt from the API's small JSON body limit: streamed here with its own limit. */
export function isCardUploadPath(method: string, path: string): boolean {
  return method === 'POST' && IMPORT_PATH.test(path);
}

const notACard = (reason: string) => new AppError('BAD_REQUEST', messages.cards.notACard(reason));

export async function readCardUpload(c: Context<AppEnv>): Promise<Buffer> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) throw new AppError('BAD_REQUEST', messages.cards.noFile);
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > CARD_MAX_BYTES + BODY_SLACK) throw notACard('it is larger than 10 MB');
  const body = c.req.raw.body;
  if (!body) throw new AppError('BAD_REQUEST', messages.cards.noFile);

  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fileSize: CARD_MAX_BYTES + 1, fields: 5, fieldSize: 1024, parts: 8 } });
  } catch {
    throw new AppError('BAD_REQUEST', messages.cards.noFile);
  }
  let file: Promise<{ bytes: Buffer; truncated: boolean }> | undefined;
  busboy.on('file', (field, stream) => {
    if (field !== CARD_FILE_FIELD || file) {
      stream.resume();
      return;
    }
    file = new Promise((resolve, reject) => {
      const parts: Buffer[] = [];
      let truncated = false;
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('limit', () => (truncated = true));
      stream.on('error', reject);
      stream.on('close', () => resolve({ bytes: Buffer.concat(parts), truncated }));
    });
    // Awaited only when the form was whole: a cut-off body's rejection must not go unhandled.
    file.catch(() => {});
  });
  // A body that stops arriving is given up (408), as every upload's is: it would hold its buffer.
  const watched = watchForStall(body);
  const reader = watched.reader;
  const fed = await feedMultipart(reader, busboy, CARD_MAX_BYTES + BODY_SLACK);
  if (watched.stalled()) throw watched.error();
  if (fed === 'too-large') {
    await reader.cancel().catch(() => {});
    throw notACard('it is larger than 10 MB');
  }
  if (fed === 'malformed') throw new AppError('BAD_REQUEST', messages.cards.noFile);
  if (!file) throw new AppError('BAD_REQUEST', messages.cards.noFile);
  const { bytes, truncated } = await file;
  if (truncated || bytes.length > CARD_MAX_BYTES) throw notACard('it is larger than 10 MB');
  return bytes;
}
