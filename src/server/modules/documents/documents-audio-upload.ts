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
import Busboy from 'busboy';
import { audioProblemMessage } from '../../ai/speech/audio-file';
import { AudioSniffer, type AudioSniff } from '../../ai/speech/audio-sniffer';
import type { DocumentService } from './documents.service';
import type { AudioTranscriber } from './audio-transcriber';
import { AUDIO_KIND } from './file-sniff';
import { cleanDisplayName } from './display-name';
import { feedMultipart } from '../../lib/multipart-feed';
import type { StreamingStore } from './store-as-it-streams';

export const AUDIO_FILE_MAX = limits.audioTranscriptionMaxBytes;
const TITLE_MAX = 200;
/** The file at its largest plus room for the multipart framing and the short fields. */
const BODY_MAX = AUDIO_FILE_MAX + 64 * 1024;
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
  const contentType = c.req.header('content-type') ?? '';
  const body = c.req.raw.body;
  if (!/^multipart\/form-data/i.test(contentType) || !body) throw new AppError('BAD_REQUEST', messages.documents.notMultipart);
  const reader = body.getReader();
  const tooLarge = () => {
    void reader.cancel().catch(() => {});
    return c.json(errorBody('PAYLOAD_TOO_LARGE', messages.documents.audioTooLarge), 413, { connection: 'close' });
  };
  if (Number(c.req.header('content-length') ?? '0') > BODY_MAX) return tooLarge();

  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      // One byte over the limit tells "too large" apart from "exactly 20 MB".
      limits: { fileSize: AUDIO_FILE_MAX + 1, files: 1, fields: 8, fieldSize: 4096, parts: 10 },
    });
  } catch {
    throw new AppError('BAD_REQUEST', messages.documents.notMultipart);
  }
  const fields: Record<string, string> = {};
  let upload: (StreamingStore<AudioSniff> & { key: string; name: string }) | undefined;
  busboy.on('field', (name, value) => {
    fields[name] = value;
  });
  busboy.on('file', (_field, stream, info) => {
    const name = cleanDisplayName(info.filename ?? '');
    // The browser sends the title first; the key carries it when it is there (the key's name part
    // is for people reading the bucket, the document's name is decided below).
    const keyName = displayTitle(fields.title ?? '') || name;
    upload = {
      name,
      ...service.storeAsItStreams<AudioSniff>(personality, keyName, stream, {
        maxBytes: AUDIO_FILE_MAX,
        sniffer: new AudioSniffer(),
        accept: (verdict: AudioSniff) => verdict.ok && transcriber.formats.includes(verdict.format),
      }),
    };
  });

  const fed = await feedMultipart(reader, busboy, BODY_MAX);
  if (fed !== 'done') {
    upload?.abort();
    await upload?.outcome;
    if (fed === 'too-large') return tooLarge();
    throw new AppError('BAD_REQUEST', messages.documents.uploadMalformed);
  }
  if (!upload) throw new AppError('BAD_REQUEST', messages.documents.audioNoFile);
  const stored = await upload.outcome;
  if (!stored.ok) {
    if (stored.reason === 'too-large') return tooLarge();
    if (stored.reason === 'failed') throw stored.error;
    const verdict = stored.verdict;
    throw new AppError('BAD_REQUEST', verdict.ok ? messages.documents.audioOfflineWavOnly : audioProblemMessage(verdict.reason));
  }
  if (!stored.verdict.ok) throw new Error('an accepted upload has a refusing verdict');
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
