// Builds the documents domain from its dependencies: storage, the extraction worker, the event
// bus, the service and the job handler. app.ts mounts its routes and hands its deletion hook to
// the personalities service; start.ts runs its job handler and closes it.
import fs from 'node:fs';
import type { AppConfig } from '../../config';
import type { DatabaseHandle } from '../../db/client';
import type { Logger } from '../../lib/logger';
import type { Clock } from '../../lib/clock';
import type { BlobStorage } from '../../storage/storage';
import { createConfiguredStorage } from '../../storage/configured-storage';
import type { EmbeddingClient } from '../../ai/embeddings';
import { createEmbeddings } from '../../ai/providers';
import { documentsMissingEmbeddings } from './chunk-search.repository';
import type { JobHandler } from '../../jobs/job-runner';
import { createExtractPool } from './extract-pool';
import { createDocumentEvents } from './documents-events';
import { createDocumentService } from './documents.service';
import { createDocumentProcessor, PROCESS_JOB } from './document-processor';
import type { ModerationService } from '../moderation/moderation.service';
import { createUrlImporter } from './documents-import';
import { MAX_TEXT_CHARS } from './text-extract';
import type { AudioTranscriber } from './audio-transcriber';
import { createStorageCleanup, STORAGE_CLEANUP_JOB } from './storage-cleanup';

export interface DocumentsModuleDeps {
  config: AppConfig;
  database: DatabaseHandle;
  logger: Logger;
  clock: Clock;
  /** Defaults to S3_* object storage when configured, else files under DATA_DIR/blobs. */
  storage?: BlobStorage;
  /** Defaults to providers.ts's choice (EMBEDDING_MODEL, else the embedded model); null: none. */
  embeddings?: EmbeddingClient | null;
  /** Speech-to-text for audio documents (the voice module's provider); none: audio is refused. */
  transcriber?: AudioTranscriber;
  /** Document moderation (issue 15): the processing job checks text; held documents stay private. */
  moderation?: Pick<ModerationService, 'checkDocument' | 'documentHeld'>;
}

export function createDocumentsModule(deps: DocumentsModuleDeps) {
  const { config, database, logger } = deps;
  const d = config.documents;
  const storage = deps.storage ?? createConfiguredStorage(config);
  const embeddings = deps.embeddings === undefined ? createEmbeddings(config) : (deps.embeddings ?? undefined);
  const pool = createExtractPool({
    timeoutMs: d.extractTimeoutMs,
    memoryMb: d.extractMemoryMb,
    limits: { maxPages: d.extractMaxPages, maxUnpackedBytes: d.extractMaxUnpackedBytes, maxTextChars: MAX_TEXT_CHARS },
    logger,
  });
  const events = createDocumentEvents();
  let wake = () => {};
  const cleanup = createStorageCleanup({ db: database.db, storage, logger, wake: () => wake() });
  const service = createDocumentService({
    db: database.db,
    storage,
    clock: deps.clock,
    events,
    maxAttempts: config.jobs.maxAttempts,
    wake: () => wake(),
    cleanup,
    storageQuotaBytes: config.documents.storageQuotaBytes,
    // The embedded database and stored files live in DATA_DIR unless PostgreSQL and S3 hold them.
    freeDiskBytes: database.kind === 'pglite' || !config.s3 ? () => freeBytesAt(config.dataDir, logger) : undefined,
    diskReserveBytes: config.documents.diskReserveBytes,
    documentHeld: deps.moderation ? (id) => deps.moderation!.documentHeld(id) : undefined,
  });
  const processor = createDocumentProcessor({
    db: database.db,
    vectorStore: database.vectorStore,
    storage,
    pool,
    events,
    embeddings,
    logger,
    chunkSize: d.chunkSize,
    chunkOverlap: d.chunkOverlap,
    embeddingBatchSize: d.embeddingBatchSize,
    sliceMs: config.jobs.sliceMs,
    maxPages: d.extractMaxPages,
    moderation: deps.moderation,
    transcriber: deps.transcriber,
  });
  const importUrl = createUrlImporter(service, pool, {
    timeoutMs: d.urlImportTimeoutMs,
    allowLoopback: d.urlImportAllowLoopback,
    maxPages: d.extractMaxPages,
  });
  const streamClosers = new Set<() => void>();

  return {
    service,
    importUrl,
    transcriber: deps.transcriber,
    events,
    storage,
    /** EVENT_STREAMS_PER_CLIENT: open event streams allowed per user and per address. */
    maxEventStreamsPerClient: config.rateLimits.eventStreamsPerClient,
    /** DOCUMENT_STREAM_POLL_MS: the stream's re-read besides change notices. */
    streamPollMs: config.rateLimits.documentStreamPollMs,
    embeddingModel: embeddings?.model ?? null,
    /**
     * Start-up: queues embedding for documents with chunks that have no vector from the current
     * model (new since a crash, or made by another model before EMBEDDING_MODEL changed: those
     * are re-embedded, and their old vectors replaced). Never throws.
     */
    async queueMissingEmbeddings(): Promise<number> {
      if (!embeddings) return 0;
      try {
        const ids = await documentsMissingEmbeddings(database.db, embeddings.model);
        let queued = 0;
        for (const id of ids) if (await service.queueEmbedding(id)) queued++;
        if (queued > 0) logger.info(`embeddings: ${queued} document(s) queued for ${embeddings.model}`);
        return queued;
      } catch (err) {
        logger.warn('could not queue documents for embedding', err instanceof Error ? err.message : err);
        return 0;
      }
    },
    jobHandlers: { [PROCESS_JOB]: processor, [STORAGE_CLEANUP_JOB]: cleanup.handler } as Record<string, JobHandler>,
    onPersonalityDeleted: service.onPersonalityDeleted,
    /** Live streams register here so a stopping server can end them. */
    streamClosers,
    bindWake(fn: () => void) {
      wake = fn;
    },
    /** Ends live streams (before the HTTP server closes). */
    endStreams() {
      for (const close of streamClosers) close();
      streamClosers.clear();
    },
    async close() {
      await pool.close();
    },
  };
}

export type DocumentsModule = ReturnType<typeof createDocumentsModule>;

/** Free bytes for this user on the disk holding `dir` (undefined when it cannot be told). */
function freeBytesAt(dir: string, logger: Logger): number | undefined {
  try {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch (err) {
    logger.debug(`free disk space of ${dir} unknown: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

