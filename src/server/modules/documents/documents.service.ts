// Rules for a personality's documents: the owner manages them (list, upload, process, rechunk,
// privacy, delete, chunks); anyone who may see the personality may open the read-only source view
// and the knowledge summary, where a private document exists only for the owner.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import { AppError, isForeignKeyViolation } from '../../lib/errors';
import type { BlobStorage } from '../../storage/storage';
import { BlobNotFoundError, documentKey, personalityPrefix } from '../../storage/storage';
import { enqueueJob, deleteFailedJobs, replaceQueuedJob } from '../../jobs/jobs.repository';
import type { StorageCleanup } from './storage-cleanup';
import { loadOwnedPersonality, loadVisiblePersonality, isUuid } from '../personalities/personality-access';
import type { PersonalityRow } from '../personalities/personalities.repository';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import type { DocumentDto, KnowledgeSummary, SourceView } from '../../../shared/schemas/documents';
import * as repo from './documents.repository';
import { PROCESS_JOB, type ProcessPayload } from './document-processor';
import type { DocumentEvents } from './documents-events';
import type { DocumentKind } from './file-sniff';
import { storeAsItStreams, type StoreOptions } from './store-as-it-streams';
import { MIME_BY_KIND } from './file-sniff';

export interface DocumentServiceDeps {
  db: Database;
  storage: BlobStorage;
  clock: Clock;
  events: DocumentEvents;
  maxAttempts: number;
  /** Tells the job runner there is work (set once the runner exists). */
  wake: () => void;
  /** A document held by moderation stays private until an admin clears it. */
  documentHeld?: (documentId: string) => Promise<boolean>;
  /** Removes a deleted document's or personality's files, now or by a retried job. */
  cleanup: StorageCleanup;
  /** Bytes one person's documents may take together; 0 or unset: no limit. */
  storageQuotaBytes?: number;
  /**
   * Free bytes on the disk the embedded database and stored files share (undefined: not known, or
   * nothing local). A document is refused while less than `diskReserveBytes` plus room for its
   * text, chunks and vectors would be left: the embedded database froze every request when its
   * disk filled mid-ingest.
   */
  freeDiskBytes?: () => number | undefined;
  diskReserveBytes?: number;
}

/** Room a document takes in the database beyond its file: text, chunks, their index and vectors. */
const DATABASE_BYTES_PER_FILE_BYTE = 4;

/** The side panel lists this many of the newest documents; the counts cover them all. */
const KNOWLEDGE_PANEL_DOCUMENTS = 20;

export function toDocumentDto(row: repo.DocumentSummary): DocumentDto {
  const active = row.processingState === 'queued' || row.processingState === 'processing';
  const status = active
    ? 'processing'
    : row.processingState === 'failed'
      ? 'failed'
      : row.chunkCount > 0
        ? 'ready'
        : row.hasContent
          ? 'needs_chunking'
          : 'needs_processing';
  return {
    id: row.id,
    personalityId: row.personalityId,
    fileName: row.fileName,
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
    sourceUrl: row.sourceUrl,
    isPrivate: row.isPrivate,
    heldForReview: row.heldForReview,
    status,
    progress: active ? row.progress : status === 'ready' ? 100 : 0,
    error: row.processingState === 'failed' ? row.error : null,
    hasContent: row.hasContent,
    chunkCount: row.chunkCount,
    embeddedCount: row.embeddedCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A stored document before it exists in the database. */
export interface NewStoredDocument {
  fileName: string;
  kind: DocumentKind;
  bytes: Uint8Array;
  isPrivate: boolean;
  /** Text already extracted (URL import); the job then only chunks it. */
  content?: string;
  sourceUrl?: string;
}

/** A blob already in storage, about to become a document. */
export interface StoredBlob extends Omit<NewStoredDocument, 'bytes'> {
  key: string;
  sizeBytes: number;
  contentHash: string;
}

/** How much each mode redoes: processing extracts, chunks and embeds; rechunking chunks and embeds. */
const MODE_SCOPE: Record<ProcessPayload['mode'], number> = { embed: 0, rechunk: 1, process: 2 };

function asksForMore(request: ProcessPayload, waiting: Partial<ProcessPayload>): boolean {
  return MODE_SCOPE[request.mode] > MODE_SCOPE[waiting.mode ?? 'process'];
}

export function createDocumentService(deps: DocumentServiceDeps) {
  const { db, storage, events } = deps;

  /** Records a blob already stored under `key` as a document and queues its job; removes the blob when that fails. */
  async function recordStored(personality: PersonalityRow, input: StoredBlob): Promise<DocumentDto> {
    let row: repo.DocumentSummary;
    const values = {
      personalityId: personality.id,
      fileName: input.fileName,
      filePath: input.key,
      content: input.content ?? null,
      isPrivate: input.isPrivate,
      mimeType: MIME_BY_KIND[input.kind],
      sizeBytes: input.sizeBytes,
      contentHash: input.contentHash,
      sourceUrl: input.sourceUrl ?? null,
    };
    const quota = deps.storageQuotaBytes ?? 0;
    try {
      const free = deps.freeDiskBytes?.();
      if (free !== undefined && free < (deps.diskReserveBytes ?? 0) + DATABASE_BYTES_PER_FILE_BYTE * input.sizeBytes) {
        throw new AppError('INSUFFICIENT_STORAGE', messages.documents.serverDiskFull(input.fileName), { details: { freeBytes: free } });
      }
      row =
        quota > 0
          ? await db.transaction(async (tx) => {
              await repo.lockOwnerForDocuments(tx, personality.userId);
              const used = await repo.storageUsedBy(tx, personality.userId);
              if (used + input.sizeBytes > quota) {
                throw new AppError('PAYLOAD_TOO_LARGE', messages.documents.storageFull(input.fileName, used, quota), {
                  details: { usedBytes: used, quotaBytes: quota },
                });
              }
              return repo.insertDocument(tx, values);
            })
          : await repo.insertDocument(db, values);
    } catch (err) {
      // The personality was deleted meanwhile: leave nothing behind.
      await storage.delete(input.key).catch(() => {});
      if (isForeignKeyViolation(err)) throw new AppError('NOT_FOUND', messages.personality.notFound);
      throw err;
    }
    await enqueue(row.id, { mode: input.content !== undefined ? 'rechunk' : 'process' });
    events.changed(personality.id);
    const fresh = await repo.findDocument(db, personality.id, row.id);
    return toDocumentDto(fresh ?? row);
  }

  async function ownedDocument(viewer: Viewer, personalityId: string, documentId: string) {
    await loadOwnedPersonality(db, personalityId, viewer.id);
    const doc = isUuid(documentId) ? await repo.findDocument(db, personalityId, documentId) : undefined;
    if (!doc) throw new AppError('NOT_FOUND', messages.documents.notFound);
    return doc;
  }

  async function enqueue(documentId: string, payload: ProcessPayload): Promise<void> {
    if (!(await tryEnqueue(documentId, payload))) throw new AppError('CONFLICT', messages.documents.alreadyProcessing);
    deps.wake();
  }

  /**
   * Queues the document's job; false when one is already running, or waiting and doing at least as
   * much. A waiting job that would do less (only embed, after a restart; or chunk when the owner
   * now asks to process) is replaced by the owner's request: their Rechunk is never lost behind it.
   */
  async function tryEnqueue(documentId: string, payload: ProcessPayload): Promise<boolean> {
    return db.transaction(async (tx) => {
      await deleteFailedJobs(tx, documentId);
      const { job, created } = await enqueueJob(tx, {
        kind: PROCESS_JOB,
        documentId,
        dedupeKey: `document:${documentId}`,
        payload: { ...payload },
        maxAttempts: deps.maxAttempts,
      });
      // `job` can be missing on PostgreSQL: the running job finished (and was deleted) between the
      // insert that met it and the read of it. Nothing is then queued; the person may ask again.
      const waiting = job as typeof job | undefined;
      const queued = created || (waiting !== undefined && asksForMore(payload, waiting.payload as Partial<ProcessPayload>) && (await replaceQueuedJob(tx, waiting.id, { ...payload })));
      // A background job leaves the document as it is (ready): see ProcessPayload.background.
      if (queued && !payload.background) await repo.setProcessing(tx, documentId, { state: 'queued', progress: 0, error: null });
      return queued;
    });
  }

  return {
    /**
     * Queues embedding the chunks that lack a vector from the current model (start-up), in the
     * background: the document, ready already, shows ready meanwhile. False when already queued.
     */
    async queueEmbedding(documentId: string): Promise<boolean> {
      const created = await tryEnqueue(documentId, { mode: 'embed', background: true });
      if (created) deps.wake();
      return created;
    },

    /** Owner check for routes that read the body afterwards (upload): answers before any byte is read. */
    ownedPersonality: (viewer: Viewer, personalityId: string) => loadOwnedPersonality(db, personalityId, viewer.id),

    async list(viewer: Viewer, personalityId: string): Promise<DocumentDto[]> {
      await loadOwnedPersonality(db, personalityId, viewer.id);
      return (await repo.listDocuments(db, personalityId)).map(toDocumentDto);
    },

    /** For the live stream, whose caller was checked when it connected. */
    async listForStream(personalityId: string): Promise<DocumentDto[]> {
      return (await repo.listDocuments(db, personalityId)).map(toDocumentDto);
    },

    /** Stores the file under a server-made key, records the document and queues its processing. */
    async addStored(personality: PersonalityRow, input: NewStoredDocument): Promise<DocumentDto> {
      const key = documentKey(personality.userId, personality.id, input.fileName, deps.clock.now());
      await storage.put(key, input.bytes);
      const contentHash = crypto.createHash('sha256').update(input.bytes).digest('hex');
      return recordStored(personality, { ...input, key, sizeBytes: input.bytes.length, contentHash });
    },

    /**
     * Starts storing an upload as it streams in (store-as-it-streams.ts), under a key made from
     * `keyName`; once its outcome is ok, `recordStored` makes it a document, and when anything
     * after that refuses it, `discardStored` removes the blob.
     */
    storeAsItStreams<V, A extends V>(personality: PersonalityRow, keyName: string, source: Readable, opts: StoreOptions<V, A>) {
      const key = documentKey(personality.userId, personality.id, keyName, deps.clock.now());
      return { key, ...storeAsItStreams(storage, key, source, opts) };
    },

    recordStored,

    async discardStored(key: string): Promise<void> {
      await storage.delete(key);
    },

    /** The stored audio of an audio document (owner), to play it back beside its transcript. */
    async audioFile(viewer: Viewer, personalityId: string, documentId: string): Promise<{ stream: Readable; size: number; mimeType: string }> {
      const doc = await ownedDocument(viewer, personalityId, documentId);
      if (!doc.filePath || !doc.mimeType?.startsWith('audio/')) throw new AppError('NOT_FOUND', messages.documents.notFound);
      try {
        // Streamed from storage to the answer: long recordings are never held whole in memory.
        return { ...(await storage.openRead(doc.filePath)), mimeType: doc.mimeType };
      } catch (err) {
        if (err instanceof BlobNotFoundError) throw new AppError('NOT_FOUND', messages.documents.storedFileMissing(doc.fileName));
        throw err;
      }
    },

    async process(viewer: Viewer, personalityId: string, documentId: string): Promise<DocumentDto> {
      const doc = await ownedDocument(viewer, personalityId, documentId);
      await enqueue(doc.id, { mode: doc.filePath ? 'process' : 'rechunk' });
      events.changed(personalityId);
      return toDocumentDto((await repo.findDocument(db, personalityId, doc.id)) ?? doc);
    },

    async rechunk(viewer: Viewer, personalityId: string, documentId: string): Promise<DocumentDto> {
      const doc = await ownedDocument(viewer, personalityId, documentId);
      if (!doc.hasContent) throw new AppError('BAD_REQUEST', messages.documents.noContentToChunk);
      await enqueue(doc.id, { mode: 'rechunk' });
      events.changed(personalityId);
      return toDocumentDto((await repo.findDocument(db, personalityId, doc.id)) ?? doc);
    },

    async setPrivacy(viewer: Viewer, personalityId: string, documentId: string, isPrivate: boolean): Promise<DocumentDto> {
      await ownedDocument(viewer, personalityId, documentId);
      if (!isPrivate && (await deps.documentHeld?.(documentId))) throw new AppError('CONFLICT', messages.moderation.documentHeld);
      const row = await repo.setPrivacy(db, personalityId, documentId, isPrivate);
      if (!row) throw new AppError('NOT_FOUND', messages.documents.notFound);
      events.changed(personalityId);
      return toDocumentDto(row);
    },

    async remove(viewer: Viewer, personalityId: string, documentId: string): Promise<void> {
      await ownedDocument(viewer, personalityId, documentId);
      const deleted = await repo.deleteDocument(db, personalityId, documentId);
      if (!deleted) throw new AppError('NOT_FOUND', messages.documents.notFound);
      if (deleted.filePath) await deps.cleanup.remove({ key: deleted.filePath });
      events.changed(personalityId);
    },

    async chunks(viewer: Viewer, personalityId: string, documentId: string, offset: number, limit: number) {
      const doc = await ownedDocument(viewer, personalityId, documentId);
      const chunks = await repo.listChunks(db, doc.id, offset, limit);
      return { document: toDocumentDto(doc), chunks, total: doc.chunkCount, offset, limit };
    },

    /** The read-only source view at a referenced chunk, for anyone who may see the personality. */
    async source(viewer: Viewer | null, personalityId: string, documentId: string, chunk: number | undefined): Promise<SourceView> {
      const personality = await loadVisiblePersonality(db, personalityId, viewer?.id ?? null);
      const doc = isUuid(documentId) ? await repo.findUsableDocument(db, personality.id, documentId, viewer?.id ?? null) : undefined;
      // Gone, or private and not the owner: the same answer, so private documents cannot be probed.
      if (!doc) throw new AppError('NOT_FOUND', messages.documents.chunkUnavailable);
      const base = {
        personality: { id: personality.id, name: personality.name },
        document: { id: doc.id, fileName: doc.fileName, isPrivate: doc.isPrivate, chunkCount: doc.chunkCount },
        referencedChunkIndex: chunk ?? null,
      };
      if (doc.chunkCount === 0) {
        return { ...base, state: 'not_processed', chunks: [], offset: 0, referencedAvailable: false, message: messages.documents.notProcessed };
      }
      const window = limits.documentSourceWindow;
      const available = chunk !== undefined && chunk < doc.chunkCount;
      const center = available ? chunk : 0;
      const offset = Math.max(0, Math.min(center - Math.floor(window / 2), doc.chunkCount - window));
      const chunks = await repo.listChunks(db, doc.id, offset, window);
      return {
        ...base,
        state: 'ready',
        chunks,
        offset,
        referencedAvailable: available,
        message: chunk !== undefined && !available ? messages.documents.chunkUnavailable : null,
      };
    },

    async knowledge(viewer: Viewer | null, personalityId: string): Promise<KnowledgeSummary> {
      const personality = await loadVisiblePersonality(db, personalityId, viewer?.id ?? null);
      const viewerId = viewer?.id ?? null;
      const [counts, newest] = await Promise.all([
        repo.knowledgeCounts(db, personality.id, viewerId),
        repo.listUsableDocuments(db, personality.id, viewerId, KNOWLEDGE_PANEL_DOCUMENTS),
      ]);
      const items = newest.map((row) => {
        const dto = toDocumentDto(row);
        return { id: dto.id, fileName: dto.fileName, status: dto.status, progress: dto.progress };
      });
      return { ...counts, ready: counts.chunks > 0, items };
    },

    /** personalities.service hook: the rows are gone (cascade); remove the stored files too. */
    async onPersonalityDeleted(personality: PersonalityRow): Promise<void> {
      await deps.cleanup.remove({ prefix: personalityPrefix(personality.userId, personality.id) });
      events.changed(personality.id);
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
