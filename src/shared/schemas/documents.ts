// The documents API contract: what the Documents modal, the chunk viewer, the source view and the
// Knowledge Base panel read and send.
import { z } from 'zod';
import { limits } from '../limits';
import { messages } from '../messages';

/**
 * needs_processing: no text yet; needs_chunking: text, no chunks; ready: chunks exist;
 * processing: a job is queued or running (see progress); failed: the last job gave up (see error).
 */
export const DOCUMENT_STATUSES = ['needs_processing', 'needs_chunking', 'ready', 'processing', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const documentSchema = z.object({
  id: z.string(),
  personalityId: z.string(),
  fileName: z.string(),
  mimeType: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  sourceUrl: z.string().nullable(),
  isPrivate: z.boolean(),
  /** Held private by moderation until an admin clears it (a pending or confirmed flag). */
  heldForReview: z.boolean(),
  status: z.enum(DOCUMENT_STATUSES),
  /** 0-100; meaningful while status is processing. */
  progress: z.number(),
  /** Why processing failed, in words for the owner; null otherwise. */
  error: z.string().nullable(),
  hasContent: z.boolean(),
  chunkCount: z.number(),
  /** Chunks with an embedding (0 when no embedding model is configured). */
  embeddedCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DocumentDto = z.infer<typeof documentSchema>;

export const documentListSchema = z.object({ documents: z.array(documentSchema) });
export const documentResponseSchema = z.object({ document: documentSchema });

/** One entry per file of an upload, in the order they were sent. */
export const uploadResultSchema = z.union([
  z.object({ fileName: z.string(), ok: z.literal(true), document: documentSchema }),
  z.object({ fileName: z.string(), ok: z.literal(false), error: z.string() }),
]);
export type UploadResult = z.infer<typeof uploadResultSchema>;

/**
 * The upload answer (200 even when some files failed; the UI shows each file's error, and
 * messages.documents.noneUploaded when `uploaded` is 0).
 */
export const uploadResponseSchema = z.object({
  results: z.array(uploadResultSchema),
  uploaded: z.number(),
  failed: z.number(),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

export const importUrlSchema = z.strictObject({
  url: z
    .string({ error: messages.documents.urlInvalid })
    .trim()
    .min(1, messages.documents.urlInvalid)
    .max(limits.documentUrlMax, messages.documents.urlInvalid)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, messages.documents.urlInvalid),
  isPrivate: z.boolean().optional(),
});
export type ImportUrlInput = z.input<typeof importUrlSchema>;

export const setPrivacySchema = z.strictObject({ isPrivate: z.boolean({ error: 'isPrivate must be true or false' }) });

export const chunkSchema = z.object({ id: z.string(), chunkIndex: z.number(), content: z.string() });
export type ChunkDto = z.infer<typeof chunkSchema>;

/** The owner's chunk viewer: a page of chunks in order. */
export const chunkPageSchema = z.object({
  document: documentSchema,
  chunks: z.array(chunkSchema),
  total: z.number(),
  offset: z.number(),
  limit: z.number(),
});

export const chunkPageQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(limits.documentChunksPageMax).default(100),
});

/**
 * The read-only source view ("Source document for {personality}"): chunks around the referenced
 * one. state not_processed -> messages.documents.notProcessed; referencedAvailable false ->
 * messages.documents.chunkUnavailable. `message` carries that text when it applies.
 */
export const sourceViewSchema = z.object({
  personality: z.object({ id: z.string(), name: z.string() }),
  document: z.object({ id: z.string(), fileName: z.string(), isPrivate: z.boolean(), chunkCount: z.number() }),
  state: z.enum(['ready', 'not_processed']),
  chunks: z.array(chunkSchema),
  /** Index of the first chunk returned (a window around the referenced one). */
  offset: z.number(),
  referencedChunkIndex: z.number().nullable(),
  referencedAvailable: z.boolean(),
  message: z.string().nullable(),
});
export type SourceView = z.infer<typeof sourceViewSchema>;

export const sourceViewQuerySchema = z.object({
  chunk: z.coerce.number().int().min(0).optional(),
});

/** The Knowledge Base panel: what the asker's conversations may draw on. */
export const knowledgeSummarySchema = z.object({
  documents: z.number(),
  chunks: z.number(),
  /** Documents whose job is queued or running. */
  processing: z.number(),
  /** At least one chunk is available. */
  ready: z.boolean(),
  /** The newest documents (at most 20), each with its status. */
  items: z.array(
    z.object({ id: z.string(), fileName: z.string(), status: z.enum(DOCUMENT_STATUSES), progress: z.number() }),
  ),
});
export type KnowledgeSummary = z.infer<typeof knowledgeSummarySchema>;

/** What the live stream (SSE, event "documents") sends: the whole list whenever it changes. */
export const documentsEventSchema = documentListSchema;

/** The label the spec shows for a status. */
export function documentStatusLabel(doc: Pick<DocumentDto, 'status' | 'progress'>): string {
  switch (doc.status) {
    case 'needs_processing':
      return messages.documents.statusNeedsProcessing;
    case 'needs_chunking':
      return messages.documents.statusNeedsChunking;
    case 'ready':
      return messages.documents.statusReady;
    case 'processing':
      return messages.documents.statusProcessing(doc.progress);
    case 'failed':
      return messages.documents.statusFailed;
  }
}
