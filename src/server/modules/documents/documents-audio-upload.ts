// POST /api/personalities/{id}/documents/audio: one audio file (MP3, WAV or M4A, judged by its
// bytes) to be transcribed into a document, with an optional title. The owner and the speech-to-
// text service are checked before a byte of the body is read. The file goes to storage as it
// arrives, judged on the way (store-as-it-streams.ts), so it is never held whole: past 20 MB the
// answer is 413, and a refused or broken upload leaves nothing stored. It is kept under a key the
// server makes (never the uploaded name), recorded, and queued for the document job, which
// transcribes it (audio-transcriber.ts).
import type { Context } from 'hono';
import type { AppEnv } from '../../auth/session';
import { AppError, errorBody } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import { audioProblemMessage } from '../../ai/speech/audio-file';
import { AudioSniffer, type AudioSniff } from '../../ai/speech/audio-sniffer';
import type { DocumentService } from './documents.service';
import type { AudioTranscriber } from './audio-transcriber';
import { AUDIO_KIND } from './file-sniff';
import { cleanDisplayName } from './display-name';
import { streamSingleFileForm } from '../../lib/single-file-form';

type AcceptedAudio = Extract<AudioSniff, { ok: true }>;

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
  const tooLarge = () => c.json(errorBody('PAYLOAD_TOO_LARGE', messages.documents.audioTooLarge), 413, { connection: 'close' });
  const read = await streamSingleFileForm(c.req.raw, AUDIO_FILE_MAX, (stream, fileName, fieldsSoFar) => {
    const name = cleanDisplayName(fileName);
    // The browser sends the title first; the key carries it when it is there (the key's name part
    // is for people reading the bucket, the document's name is decided below).
    const keyName = displayTitle(fieldsSoFar.title ?? '') || name;
    const accept = (verdict: AudioSniff): verdict is AcceptedAudio => verdict.ok && transcriber.formats.includes(verdict.format);
    return { name, ...service.storeAsItStreams(personality, keyName, stream, { maxBytes: AUDIO_FILE_MAX, sniffer: new AudioSniffer(), accept }) };
  });
  const upload = read.file;
  if (!read.ok) {
    upload?.abort();
    await upload?.outcome;
    if (read.reason === 'too-large') return tooLarge();
    throw new AppError('BAD_REQUEST', read.reason === 'not-multipart' ? messages.documents.notMultipart : messages.documents.uploadMalformed);
  }
  const fields = read.fields;
  if (!upload) throw new AppError('BAD_REQUEST', messages.documents.audioNoFile);
  const stored = await upload.outcome;
  if (!stored.ok) {
    if (stored.reason === 'too-large') return tooLarge();
    if (stored.reason === 'failed') throw stored.error;
    const verdict = stored.verdict;
    throw new AppError('BAD_REQUEST', verdict.ok ? messages.documents.audioOfflineWavOnly : audioProblemMessage(verdict.reason));
  }
  const title = fields.title ?? '';
  if (Array.from(title.trim()).length > TITLE_MAX) {
    await service.discardStored(upload.key);
    throw new AppError('BAD_REQUEST', messages.documents.audioTitleTooLong);
  }
  const isPrivate = fields.isPrivate === 'true' || fields.isPrivate === '1' || fields.isPrivate === 'on';
  const document = await service.recordStored(personality, {
    key: upload.key,
    fileName: displayTitle(title) || upload.name,
    kind: AUDIO_KIND[stored.verdict.format],
    sizeBytes: stored.sizeBytes,
    contentHash: stored.contentHash,
    isPrivate,
  });
  return c.json({ document }, 201);
}

/** A title is text, not a path: its slashes stay in the name instead of cutting it. */
function displayTitle(title: string): string {
  return title.trim() ? cleanDisplayName(title.replace(/[/\\]/g, '∕')) : '';
}
