// POST /api/personalities/{id}/documents/audio: one audio file (MP3, WAV or M4A, judged by its
// bytes) to be transcribed into a document, with an optional title. The owner and the speech-to-
// text service are checked before a byte of the body is read; the body is parsed as it streams,
// so a file past 20 MB gets 413 without being buffered whole. The file is stored under a key the
// server makes (never the uploaded name), recorded, and queued for the document job, which
// transcribes it (audio-transcriber.ts).
import type { Context } from 'hono';
import type { AppEnv } from '../../auth/session';
import { AppError, errorBody } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import { audioProblemMessage, sniffAudio } from '../../ai/speech/audio-file';
import type { DocumentService } from './documents.service';
import type { AudioTranscriber } from './audio-transcriber';
import { AUDIO_KIND } from './file-sniff';
import { cleanDisplayName } from './display-name';
import { readSingleFileForm } from '../../lib/single-file-form';

export const AUDIO_FILE_MAX = limits.audioTranscriptionMaxBytes;
const TITLE_MAX = 200;
const AUDIO_UPLOAD = /^\/api\/personalities\/[^/]+\/documents\/audio\/?$/;

export function isAudioUploadPath(method: string, path: string): boolean {
  return method === 'POST' && AUDIO_UPLOAD.test(path);
}

export async function handleAudioUpload(c: Context<AppEnv>, service: DocumentService, transcriber: AudioTranscriber | undefined, personalityId: string) {
  const viewer = c.get('viewer');
  if (!viewer) throw new AppError('UNAUTHENTICATED', messages.documents.audioSignIn);
  const personality = await service.ownedPersonality(viewer, personalityId);
  // Never a stored file that nothing can transcribe.
  if (!transcriber) throw new AppError('STT_UNAVAILABLE');
  const read = await readSingleFileForm(c.req.raw, AUDIO_FILE_MAX);
  if (!read.ok) {
    if (read.reason === 'too-large') return c.json(errorBody('PAYLOAD_TOO_LARGE', messages.documents.audioTooLarge), 413, { connection: 'close' });
    throw new AppError('BAD_REQUEST', read.reason === 'not-multipart' ? messages.documents.notMultipart : messages.documents.uploadMalformed);
  }
  const { fields, file } = read.form;
  if (!file) throw new AppError('BAD_REQUEST', messages.documents.audioNoFile);
  const bytes = file.bytes;
  const title = fields.title ?? '';
  const isPrivate = fields.isPrivate === 'true' || fields.isPrivate === '1' || fields.isPrivate === 'on';
  const sniff = sniffAudio(bytes);
  if (!sniff.ok) throw new AppError('BAD_REQUEST', audioProblemMessage(sniff.reason));
  if (!transcriber.formats.includes(sniff.format)) throw new AppError('BAD_REQUEST', messages.documents.audioOfflineWavOnly);
  if (Array.from(title.trim()).length > TITLE_MAX) throw new AppError('BAD_REQUEST', messages.documents.audioTitleTooLong);
  // A title is text, not a path: its slashes stay in the name instead of cutting it.
  const cleanTitle = title.trim() ? cleanDisplayName(title.replace(/[/\\]/g, '∕')) : '';
  const document = await service.addStored(personality, { fileName: cleanTitle || cleanDisplayName(file.name), kind: AUDIO_KIND[sniff.format], bytes, isPrivate });
  return c.json({ document }, 201);
}
