// POST /api/personalities/{id}/documents/audio: one audio file (MP3, WAV or M4A, judged by its
// bytes) to be transcribed into a document, with an optional title. The owner and the speech-to-
// text service are checked before a byte of the body is read; the body is parsed as it streams,
// so a file past 20 MB gets 413 without being buffered whole. The file is stored under a key the
// server makes (never the uploaded name), recorded, and queued for the document job, which
// transcribes it (audio-transcriber.ts).
import Busboy from 'busboy';
import type { Context } from 'hono';
import type { AppEnv } from '../../auth/session';
import { AppError, errorBody } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import { sniffAudio } from '../../ai/speech/audio-file';
import type { DocumentService } from './documents.service';
import type { AudioTranscriber } from './audio-transcriber';
import { AUDIO_KIND } from './file-sniff';
import { cleanDisplayName } from './display-name';

export const AUDIO_FILE_MAX = limits.audioTranscriptionMaxBytes;
const BODY_MAX = AUDIO_FILE_MAX + 64 * 1024;
const TITLE_MAX = 200;
const AUDIO_UPLOAD = /^\/api\/personalities\/[^/]+\/documents\/audio\/?$/;

export function isAudioUploadPath(method: string, path: string): boolean {
  return method === 'POST' && AUDIO_UPLOAD.test(path);
}

function sniffError(reason: 'empty' | 'not-audio' | 'truncated' | 'wav-format'): string {
  switch (reason) {
    case 'empty':
      return messages.documents.audioEmpty;
    case 'truncated':
      return messages.documents.audioTruncated;
    case 'wav-format':
      return messages.documents.audioWavFormat;
    case 'not-audio':
      return messages.documents.audioType;
  }
}

export async function handleAudioUpload(c: Context<AppEnv>, service: DocumentService, transcriber: AudioTranscriber | undefined, personalityId: string) {
  const viewer = c.get('viewer');
  if (!viewer) throw new AppError('UNAUTHENTICATED', messages.documents.audioSignIn);
  const personality = await service.ownedPersonality(viewer, personalityId);
  // Never a stored file that nothing can transcribe.
  if (!transcriber) throw new AppError('STT_UNAVAILABLE');
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) throw new AppError('BAD_REQUEST', messages.documents.notMultipart);
  const body = c.req.raw.body;
  if (!body) throw new AppError('BAD_REQUEST', messages.documents.audioNoFile);
  const reader = body.getReader();
  if (Number(c.req.header('content-length') ?? '0') > BODY_MAX) {
    void reader.cancel().catch(() => {});
    return c.json(errorBody('PAYLOAD_TOO_LARGE', messages.documents.audioTooLarge), 413, { connection: 'close' });
  }

  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { fileSize: AUDIO_FILE_MAX + 1, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
    });
  } catch {
    throw new AppError('BAD_REQUEST', messages.documents.notMultipart);
  }

  let title = '';
  let isPrivate = false;
  let file: { name: string; parts: Buffer[]; size: number; done: Promise<void> } | undefined;
  busboy.on('field', (name, value) => {
    if (name === 'title') title = value;
    if (name === 'isPrivate') isPrivate = value === 'true' || value === '1' || value === 'on';
  });
  busboy.on('file', (_field, stream, info) => {
    const current = { name: cleanDisplayName(info.filename), parts: [] as Buffer[], size: 0, done: Promise.resolve() };
    current.done = new Promise<void>((resolve) => stream.on('close', resolve));
    stream.on('data', (d: Buffer) => {
      current.size += d.length;
      // Past the limit nothing more is kept: the answer will be 413.
      if (current.size <= AUDIO_FILE_MAX) current.parts.push(d);
      else current.parts.length = 0;
    });
    file = current;
  });
  const finished = new Promise<void>((resolve, reject) => {
    busboy.on('close', resolve);
    busboy.on('error', reject);
  });
  finished.catch(() => {});

  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > BODY_MAX) {
        busboy.destroy();
        void reader.cancel().catch(() => {});
        return c.json(errorBody('PAYLOAD_TOO_LARGE', messages.documents.audioTooLarge), 413, { connection: 'close' });
      }
      if (!busboy.write(value)) await new Promise((r) => busboy.once('drain', r));
    }
    busboy.end();
    await finished;
  } catch {
    busboy.destroy();
    throw new AppError('BAD_REQUEST', messages.documents.uploadMalformed);
  }

  if (!file) throw new AppError('BAD_REQUEST', messages.documents.audioNoFile);
  await file.done;
  if (file.size > AUDIO_FILE_MAX) return c.json(errorBody('PAYLOAD_TOO_LARGE', messages.documents.audioTooLarge), 413);
  const bytes = Buffer.concat(file.parts);
  file.parts.length = 0;
  const sniff = sniffAudio(bytes);
  if (!sniff.ok) throw new AppError('BAD_REQUEST', sniffError(sniff.reason));
  if (!transcriber.formats.includes(sniff.format)) throw new AppError('BAD_REQUEST', messages.documents.audioOfflineWavOnly);
  if (Array.from(title.trim()).length > TITLE_MAX) throw new AppError('BAD_REQUEST', messages.documents.audioTitleTooLong);
  // A title is text, not a path: its slashes stay in the name instead of cutting it.
  const cleanTitle = title.trim() ? cleanDisplayName(title.replace(/[/\\]/g, '∕')) : '';
  const document = await service.addStored(personality, { fileName: cleanTitle || file.name, kind: AUDIO_KIND[sniff.format], bytes, isPrivate });
  return c.json({ document }, 201);
}
