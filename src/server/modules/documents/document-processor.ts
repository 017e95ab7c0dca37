// The "document.process" job: stored file -> text (extraction, when asked or missing) -> chunks
// (replaced as a whole in one transaction that first checks the job is still ours) -> embeddings
// in batches (the embedded model by default, or EMBEDDING_MODEL; document-embedder.ts). The
// document is searchable by its words as soon as its chunks are committed, and by meaning as its
// vectors come in. Mode "embed" only embeds what lacks a vector from the current model (start-up,
// after a change of model). The transaction that commits the chunks also turns the job's payload
// into mode "embed": a job handed back at a clean stop, taken over after a crash (lease expiry) or
// stepping aside for others resumes with the same chunks and vectors, never extracting again (a
// 10,000-chunk document embeds for most of an hour). Progress goes on the document row for the
// list and the live stream, except for a background job (below).
// A background job (`background`: start-up embedding of documents already ready, e.g. after an
// upgrade from a version without vectors or a change of EMBEDDING_MODEL) only adds vectors to a
// document that is searchable by its words already: the document stays "ready" (its state and
// progress are left alone) and a failure for good is logged, not shown as a failed document.
// A document deleted meanwhile simply ends the job: its rows are gone with it. Audio documents
// are transcribed first (audio-transcriber.ts), piece by piece with a checkpoint on the job.
import type { VectorStore } from '../../db/embeddings-schema';
import type { Database } from '../../db/client';
import type { Logger } from '../../lib/logger';
import type { BlobStorage } from '../../storage/storage';
import { BlobNotFoundError } from '../../storage/storage';
import type { EmbeddingClient } from '../../ai/embeddings';
import { holdsJob, saveJobPayload } from '../../jobs/jobs.repository';
import { JobYield, PermanentJobError, type JobContext, type JobHandler } from '../../jobs/job-runner';
import { messages } from '../../../shared/messages';
import * as repo from './documents.repository';
import { embedDocumentChunks } from './document-embedder';
import { chunkInWorker, extractDocumentText } from './text-extract';
import type { ExtractPool } from './extract-pool';
import type { DocumentEvents } from './documents-events';
import { FORMAT_OF_AUDIO_KIND, isAudioKind, MIME_BY_KIND, type AudioKind, type DocumentKind } from './file-sniff';
import type { AudioTranscriber } from './audio-transcriber';

export const PROCESS_JOB = 'document.process';

export interface ProcessPayload {
  /** process: extract from the stored file again; rechunk: chunk the text already extracted;
   * embed: only embed the chunks that have no vector from the current model. */
  mode: 'process' | 'rechunk' | 'embed';
  /** Audio: the transcripts of the pieces finished by earlier attempts, in order (a checkpoint). */
  transcribed?: (string | null)[];
  /** Set once embedding has begun (chunks committed): a resumed job's progress bar carries on from here. */
  resumedFrom?: number;
  /** Mode embed after this job committed the chunks: the settings they were made with. A job
   * resumed under other settings makes them again from the stored text. */
  chunking?: ChunkSettings;
  /** Mode embed: the committed chunks still await the moderation check (interrupted before it). */
  moderationPending?: boolean;
  /** Queued by the server for a document already ready: its visible state stays as it is. Kept in every checkpoint. */
  background?: boolean;
}

interface ChunkSettings {
  size: number;
  overlap: number;
}

export interface ProcessorDeps {
  db: Database;
  /** How the database keeps vectors (embeddings-schema.ts). */
  vectorStore: VectorStore;
  storage: BlobStorage;
  pool: ExtractPool;
  events: DocumentEvents;
  embeddings?: EmbeddingClient;
  logger: Logger;
  chunkSize: number;
  chunkOverlap: number;
  embeddingBatchSize: number;
  /** Embedding steps aside for waiting jobs after this long (JobYield), resuming where it was. */
  sliceMs: number;
  maxPages: number;
  /** Speech-to-text for audio documents; without it they fail with "not configured". */
  transcriber?: AudioTranscriber;
  /** Checks the document's text; flagged text holds the document private (issue 15). */
  moderation?: { checkDocument(doc: { id: string; personalityId: string }, text: string): Promise<boolean> };
}

const KIND_BY_MIME = Object.fromEntries(Object.entries(MIME_BY_KIND).map(([k, v]) => [v, k])) as Record<string, DocumentKind>;

class LostJobError extends Error {
  constructor() {
    super('the job is no longer held by this worker');
  }
}

export function createDocumentProcessor(deps: ProcessorDeps): JobHandler {
  const { db, events } = deps;

  async function run(ctx: JobContext) {
    const documentId = ctx.job.documentId;
    if (!documentId) return;
    const doc = await repo.loadForProcessing(db, documentId);
    if (!doc) return; // deleted before we started
    const payload = ctx.job.payload as Partial<ProcessPayload>;
    const chunking: ChunkSettings = { size: deps.chunkSize, overlap: deps.chunkOverlap };
    const mode = modeToRun(payload, chunking);
    const resumedFrom = typeof payload.resumedFrom === 'number' ? payload.resumedFrom : undefined;
    const background = payload.background === true;
    // Every checkpoint of a background job stays a background job's.
    const carried: Pick<ProcessPayload, 'background'> = background ? { background } : {};
    if (!background) {
      // A resumed job (after stepping aside, a stop or a crash) keeps its bar where it was.
      await repo.setProcessing(db, doc.id, { state: 'processing', progress: resumedFrom === undefined ? 1 : undefined, error: null });
      events.changed(doc.personalityId);
    }
    let lastProgress = 0;
    const progress = async (value: number, force = false) => {
      const now = Date.now();
      if (!force && now - lastProgress < 400) return;
      lastProgress = now;
      // A background job's document shows ready, not a bar; its embedded count still moves.
      if (!background) await repo.setProgress(db, doc.id, Math.max(1, Math.min(99, Math.round(value))));
      events.changed(doc.personalityId);
    };

    const embedding = deps.embeddings;
    // Where embedding progress starts (after a transcription it starts later).
    let embedFrom = resumedFrom ?? 30;
    // The settings this job's chunks were made with (none for a start-up job: chunks made earlier).
    const madeWith = mode === 'embed' ? payload.chunking : chunking;
    if (mode !== 'embed') {
      // 1. Text and chunks (both computed in the extraction worker).
      let chunks: string[];
      let extracted: string | undefined;
      // Progress once the text is there (audio spent most of the job transcribing).
      let textDone = 15;
      if (mode === 'process' && doc.filePath) {
        let bytes: Buffer;
        try {
          bytes = await deps.storage.get(doc.filePath);
        } catch (err) {
          if (err instanceof BlobNotFoundError) throw new PermanentJobError(messages.documents.storedFileMissing(doc.fileName));
          throw err;
        }
        const kind = KIND_BY_MIME[doc.mimeType ?? ''] ?? 'text';
        if (isAudioKind(kind)) {
          // Audio: the transcript is the document's text (most of the job's time: to 60%).
          extracted = await transcribe(ctx, bytes, kind, doc.fileName, (fraction) => progress(1 + 59 * fraction, true));
          const outcome = await abortable(chunkInWorker(deps.pool, extracted, doc.fileName, chunking), ctx.signal);
          if (!outcome.ok) throw new PermanentJobError(outcome.error);
          chunks = outcome.chunks ?? [];
          textDone = 62;
        } else {
          const outcome = await abortable(extractDocumentText(deps.pool, kind, bytes, doc.fileName, deps.maxPages, chunking, true), ctx.signal);
          if (!outcome.ok) throw new PermanentJobError(outcome.error);
          extracted = outcome.text;
          chunks = outcome.chunks ?? [];
        }
      } else {
        if (!doc.content) throw new PermanentJobError(messages.documents.noContentToChunk);
        const outcome = await abortable(chunkInWorker(deps.pool, doc.content, doc.fileName, chunking), ctx.signal);
        if (!outcome.ok) throw new PermanentJobError(outcome.error);
        chunks = outcome.chunks ?? [];
      }
      ctx.signal.throwIfAborted();
      await progress(textDone, true);

      // 2. Chunks, replaced whole, only while the job is still ours. From here the document is
      // searchable by its words. The same transaction makes the job an "embed" job, so whatever
      // stops it from now on (a restart, a crash, a slice's end) does not make the chunks again.
      embedFrom = Math.max(30, textDone + 3);
      const moderationPending = deps.moderation !== undefined;
      await db.transaction(async (tx) => {
        if (!(await holdsJob(tx, ctx.job.id, ctx.token))) throw new LostJobError();
        await repo.replaceChunks(tx, doc, chunks, extracted);
        const checkpoint: ProcessPayload = { mode: 'embed', resumedFrom: embedFrom, chunking, ...(moderationPending ? { moderationPending } : {}), ...carried };
        if (!(await saveJobPayload(tx, ctx.job.id, ctx.token, { ...checkpoint }))) throw new LostJobError();
      });
      events.changed(doc.personalityId);
      if (moderationPending) await moderate(ctx, doc, chunks.join('\n\n'), { mode: 'embed', resumedFrom: embedFrom, chunking, ...carried });
      await progress(embedding ? embedFrom : 95, true);
    } else if (payload.moderationPending && deps.moderation) {
      // Stopped between committing the chunks and checking them: check them now.
      await moderate(ctx, doc, await repo.readChunkTexts(db, doc.id), { mode: 'embed', resumedFrom: embedFrom, ...(madeWith ? { chunking: madeWith } : {}), ...carried });
    }

    // 3. Embeddings, batch by batch, read back from the stored chunks (the text above can go).
    // A long document steps aside after a slice when other jobs wait (one person's big upload must
    // not hold everyone's small ones at 0%), and carries on behind them: only what lacks a vector
    // is embedded again.
    if (embedding) {
      const sliceEnds = Date.now() + deps.sliceMs;
      let shownProgress = embedFrom;
      let outcome: { paused: boolean };
      try {
        outcome = await embedDocumentChunks(db, deps.vectorStore, embedding, doc.id, deps.embeddingBatchSize, {
          signal: ctx.signal,
          onProgress: async ({ done, total }) => {
            await repo.setEmbeddedCount(db, doc.id, done);
            shownProgress = embedFrom + ((99 - embedFrom) * done) / Math.max(total, 1);
            await progress(shownProgress);
          },
          shouldPause: async () => Date.now() >= sliceEnds && (await ctx.othersWaiting()),
        });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw new Error(messages.documents.embeddingFailed(err instanceof Error ? err.message : String(err)));
      }
      if (outcome.paused) {
        await progress(shownProgress, true);
        // The bar's scale stays the same on resumption: it continues from where embedding began.
        throw new JobYield({ mode: 'embed', resumedFrom: embedFrom, ...(madeWith ? { chunking: madeWith } : {}), ...carried } satisfies ProcessPayload);
      }
    }

    const finished = await db.transaction(async (tx) => {
      if (!(await holdsJob(tx, ctx.job.id, ctx.token))) return false;
      // A background job's document was ready before it and is still: nothing to change.
      if (!background) await repo.setProcessing(tx, doc.id, { state: 'idle', progress: 100, error: null, processedAt: new Date() });
      return true;
    });
    if (!finished) throw new LostJobError();
    events.changed(doc.personalityId);
  }

  /**
   * Moderation reads the text in the job, never on a request; a failure to check is logged, not a
   * failed document. Then the job's checkpoint (`after`) no longer asks for the check.
   */
  async function moderate(ctx: JobContext, doc: { id: string; personalityId: string }, text: string, after: ProcessPayload) {
    await deps.moderation!.checkDocument(doc, text).catch((err) => deps.logger.error('moderating a document failed', err));
    if (!(await saveJobPayload(db, ctx.job.id, ctx.token, { ...after }))) throw new LostJobError();
  }

  async function transcribe(ctx: JobContext, bytes: Buffer, kind: AudioKind, fileName: string, onProgress: (fraction: number) => Promise<void>) {
    if (!deps.transcriber) throw new PermanentJobError(messages.voice.sttUnavailable);
    const format = FORMAT_OF_AUDIO_KIND[kind];
    if (!deps.transcriber.formats.includes(format)) throw new PermanentJobError(messages.documents.audioOfflineWavOnly);
    const payload = ctx.job.payload as Partial<ProcessPayload>;
    const text = await deps.transcriber.transcribe(bytes, format, {
      signal: ctx.signal,
      done: Array.isArray(payload.transcribed) ? payload.transcribed : [],
      checkpoint: async (texts, fraction) => {
        if (!(await saveJobPayload(db, ctx.job.id, ctx.token, { ...payload, transcribed: texts }))) throw new LostJobError();
        await onProgress(fraction);
      },
    });
    if (!text.trim()) throw new PermanentJobError(messages.documents.audioNoSpeech(fileName));
    return text;
  }

  return {
    run,
    interruptedMessage: messages.documents.interrupted,
    async onError(job, error, willRetry) {
      if (!job.documentId) return;
      if ((job.payload as Partial<ProcessPayload>).background === true) {
        // The document is still searchable by its words: it stays ready, without (some) vectors.
        // The next start queues what still lacks a vector again.
        if (!willRetry) deps.logger.warn(`background embedding of a document failed for good; document ${job.documentId} stays ready, searchable by its words: ${error}`);
        return;
      }
      const personalityId = await repo.setProcessing(db, job.documentId, willRetry ? { state: 'queued', error: null } : { state: 'failed', error });
      if (personalityId) events.changed(personalityId);
    },
  };
}

/**
 * What a job does with its payload. An "embed" job whose chunks were made under other chunk
 * settings (changed across a restart) makes them again from the stored text: no stale chunks.
 */
function modeToRun(payload: Partial<ProcessPayload>, current: ChunkSettings): ProcessPayload['mode'] {
  const mode = payload.mode ?? 'process';
  const made = payload.chunking;
  if (mode === 'embed' && made && (made.size !== current.size || made.overlap !== current.overlap)) return 'rechunk';
  return mode;
}

/** Stops waiting when the job is aborted (the work itself is bounded and finishes on its own). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
