// The only drizzle importer for documents and chunks. Reads that can reach someone other than the
// owner take the asker and filter private documents inside the SQL.
import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { retryOnDeadlock } from '../../db/deadlock-retry';
import { personalityDocuments, personalityDocumentChunks, personalityDocumentTexts } from '../../db/schema/documents';
import { personalities } from '../../db/schema/personalities';
import { user } from '../../db/schema/auth';
import { contentFlags } from '../../db/schema/moderation';
import type { DbOrTx } from '../../jobs/jobs.repository';

export type DocumentRow = typeof personalityDocuments.$inferSelect;
export type NewDocumentRow = typeof personalityDocuments.$inferInsert;
export type ProcessingState = 'idle' | 'queued' | 'processing' | 'failed';

/** Every column but the (possibly 10 MB) content, plus whether there is content. */
const summaryColumns = {
  id: personalityDocuments.id,
  personalityId: personalityDocuments.personalityId,
  fileName: personalityDocuments.fileName,
  filePath: personalityDocuments.filePath,
  isPrivate: personalityDocuments.isPrivate,
  mimeType: personalityDocuments.mimeType,
  sizeBytes: personalityDocuments.sizeBytes,
  contentHash: personalityDocuments.contentHash,
  sourceUrl: personalityDocuments.sourceUrl,
  processingState: personalityDocuments.processingState,
  progress: personalityDocuments.progress,
  error: personalityDocuments.error,
  chunkCount: personalityDocuments.chunkCount,
  chunkGeneration: personalityDocuments.chunkGeneration,
  embeddedCount: personalityDocuments.embeddedCount,
  createdAt: personalityDocuments.createdAt,
  updatedAt: personalityDocuments.updatedAt,
  processedAt: personalityDocuments.processedAt,
  hasContent: sql<boolean>`exists (select 1 from ${personalityDocumentTexts} t where t.document_id = ${personalityDocuments.id})`,
  // Moderation keeps it private: a flag that held it is pending or confirmed (the owner is told).
  // The table is named for the outer id: a bare "id" would be the flag's.
  heldForReview: sql<boolean>`exists (select 1 from ${contentFlags} f where f.document_id = ${personalityDocuments}.id and f.held_document and f.status in ('pending', 'approved'))`,
};
export type DocumentSummary = DocumentRow & { hasContent: boolean; heldForReview: boolean };

/** "Private documents only for the owner": the asker may use this document. */
function usableBy(viewerId: string | null) {
  if (!viewerId) return sql`(not ${personalityDocuments.isPrivate})`;
  return sql`(not ${personalityDocuments.isPrivate} or exists (select 1 from ${personalities} po where po.id = ${personalityDocuments.personalityId} and po.user_id = ${viewerId}))`;
}

/** Records a document, with its text when it is already known (an imported article). */
/**
 * Takes the owner's turn to add documents: concurrent uploads by one person (from any process)
 * wait here, so each sees the others' sizes before checking the storage quota.
 */
export async function lockOwnerForDocuments(tx: DbOrTx, ownerId: string): Promise<void> {
  await tx.execute(sql`select id from ${user} where ${user.id} = ${ownerId} for update`);
}

/** Bytes the stored files of every document of every personality this person owns take. */
export async function storageUsedBy(db: DbOrTx, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${personalityDocuments.sizeBytes}), 0)` })
    .from(personalityDocuments)
    .innerJoin(personalities, eq(personalities.id, personalityDocuments.personalityId))
    .where(eq(personalities.userId, ownerId));
  return Number(row?.bytes ?? 0);
}

export async function insertDocument(db: DbOrTx, { content, ...row }: NewDocumentRow & { content?: string | null }): Promise<DocumentSummary> {
  if (content === undefined || content === null) return (await db.insert(personalityDocuments).values(row).returning(summaryColumns))[0]!;
  return db.transaction(async (tx) => {
    const [inserted] = await tx.insert(personalityDocuments).values(row).returning({ id: personalityDocuments.id });
    await writeText(tx, inserted!.id, content);
    return (await tx.select(summaryColumns).from(personalityDocuments).where(eq(personalityDocuments.id, inserted!.id)))[0]!;
  });
}

export async function listDocuments(db: Database, personalityId: string): Promise<DocumentSummary[]> {
  return db
    .select(summaryColumns)
    .from(personalityDocuments)
    .where(eq(personalityDocuments.personalityId, personalityId))
    .orderBy(desc(personalityDocuments.createdAt), desc(personalityDocuments.id));
}

/** The newest documents the asker's conversations may use (private ones only for the owner). */
export async function listUsableDocuments(db: Database, personalityId: string, viewerId: string | null, limit: number): Promise<DocumentSummary[]> {
  return db
    .select(summaryColumns)
    .from(personalityDocuments)
    .where(and(eq(personalityDocuments.personalityId, personalityId), usableBy(viewerId)))
    .orderBy(desc(personalityDocuments.createdAt), desc(personalityDocuments.id))
    .limit(limit);
}

export async function findDocument(db: DbOrTx, personalityId: string, documentId: string): Promise<DocumentSummary | undefined> {
  const rows = await db
    .select(summaryColumns)
    .from(personalityDocuments)
    .where(and(eq(personalityDocuments.id, documentId), eq(personalityDocuments.personalityId, personalityId)))
    .limit(1);
  return rows[0];
}

/** A document of a personality the caller already may see, if the asker may use it (privacy in SQL). */
export async function findUsableDocument(
  db: Database,
  personalityId: string,
  documentId: string,
  viewerId: string | null,
): Promise<DocumentSummary | undefined> {
  const rows = await db
    .select(summaryColumns)
    .from(personalityDocuments)
    .where(and(eq(personalityDocuments.id, documentId), eq(personalityDocuments.personalityId, personalityId), usableBy(viewerId)))
    .limit(1);
  return rows[0];
}

/** For the job: the document with its text, null before extraction (by id only; the job has no asker). */
export async function loadForProcessing(db: Database, documentId: string) {
  const rows = await db
    .select({
      id: personalityDocuments.id,
      personalityId: personalityDocuments.personalityId,
      fileName: personalityDocuments.fileName,
      filePath: personalityDocuments.filePath,
      mimeType: personalityDocuments.mimeType,
    })
    .from(personalityDocuments)
    .where(eq(personalityDocuments.id, documentId))
    .limit(1);
  if (!rows[0]) return undefined;
  return { ...rows[0], content: await readText(db, documentId) };
}

/** Longest piece of a document's text in one row (characters). */
export const TEXT_PIECE_CHARS = 256 * 1024;

/** The document's extracted text, joined here from its pieces (never as one value in the database). */
export async function readText(db: DbOrTx, documentId: string): Promise<string | null> {
  const pieces = await db
    .select({ text: personalityDocumentTexts.text })
    .from(personalityDocumentTexts)
    .where(eq(personalityDocumentTexts.documentId, documentId))
    .orderBy(asc(personalityDocumentTexts.pieceIndex));
  return pieces.length === 0 ? null : pieces.map((p) => p.text).join('');
}

/** Replaces the document's text, one piece per statement. */
export async function writeText(tx: DbOrTx, documentId: string, text: string): Promise<void> {
  await tx.delete(personalityDocumentTexts).where(eq(personalityDocumentTexts.documentId, documentId));
  let pieceIndex = 0;
  for (let start = 0; start < text.length || pieceIndex === 0; pieceIndex++) {
    let end = Math.min(start + TEXT_PIECE_CHARS, text.length);
    // Never between the two halves of a surrogate pair: each piece must be valid text.
    if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end]!)) end--;
    await tx.insert(personalityDocumentTexts).values({ documentId, pieceIndex, text: text.slice(start, end) });
    start = end;
  }
}

export async function setProcessing(
  db: DbOrTx,
  documentId: string,
  changes: { state: ProcessingState; progress?: number; error?: string | null; processedAt?: Date },
): Promise<string | undefined> {
  const rows = await db
    .update(personalityDocuments)
    .set({
      processingState: changes.state,
      ...(changes.progress !== undefined ? { progress: changes.progress } : {}),
      ...(changes.error !== undefined ? { error: changes.error } : {}),
      ...(changes.processedAt ? { processedAt: changes.processedAt } : {}),
      updatedAt: new Date(),
    })
    .where(eq(personalityDocuments.id, documentId))
    .returning({ personalityId: personalityDocuments.personalityId });
  return rows[0]?.personalityId;
}

export async function setProgress(db: Database, documentId: string, progress: number): Promise<void> {
  await db
    .update(personalityDocuments)
    .set({ progress })
    .where(and(eq(personalityDocuments.id, documentId), eq(personalityDocuments.processingState, 'processing')));
}

export async function setEmbeddedCount(db: DbOrTx, documentId: string, count: number): Promise<void> {
  await db.update(personalityDocuments).set({ embeddedCount: count }).where(eq(personalityDocuments.id, documentId));
}

export async function setPrivacy(db: Database, personalityId: string, documentId: string, isPrivate: boolean): Promise<DocumentSummary | undefined> {
  const rows = await db
    .update(personalityDocuments)
    .set({ isPrivate, updatedAt: new Date() })
    .where(and(eq(personalityDocuments.id, documentId), eq(personalityDocuments.personalityId, personalityId)))
    .returning(summaryColumns);
  return rows[0];
}

/**
 * Chunks and embeddings go with it (foreign keys cascade); returns the stored file's key. The
 * cascade can deadlock with the document's job mid-write (db/deadlock-retry.ts): run it again.
 */
export async function deleteDocument(db: Database, personalityId: string, documentId: string): Promise<{ filePath: string | null } | undefined> {
  const rows = await retryOnDeadlock(() =>
    db
      .delete(personalityDocuments)
      .where(and(eq(personalityDocuments.id, documentId), eq(personalityDocuments.personalityId, personalityId)))
      .returning({ filePath: personalityDocuments.filePath }),
  );
  return rows[0];
}

const INSERT_BATCH = 500;

/**
 * Inside the job's transaction: the document's chunks are replaced as a whole (with its extracted
 * text when given), so a re-run or a resumed job can never leave duplicates or a mix.
 */
export async function replaceChunks(
  tx: DbOrTx,
  doc: { id: string; personalityId: string },
  chunks: string[],
  content?: string,
): Promise<{ id: string; chunkIndex: number }[]> {
  await tx.delete(personalityDocumentChunks).where(eq(personalityDocumentChunks.documentId, doc.id));
  if (content !== undefined) await writeText(tx, doc.id, content);
  const ids: { id: string; chunkIndex: number }[] = [];
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    const rows = await tx
      .insert(personalityDocumentChunks)
      .values(chunks.slice(i, i + INSERT_BATCH).map((content, j) => ({ documentId: doc.id, personalityId: doc.personalityId, chunkIndex: i + j, content })))
      .returning({ id: personalityDocumentChunks.id, chunkIndex: personalityDocumentChunks.chunkIndex });
    ids.push(...rows);
    // PGlite resolves queries as microtasks: without this, a long transaction would starve the
    // event loop (no timers, no sockets) until it commits.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await tx
    .update(personalityDocuments)
    .set({
      chunkCount: chunks.length,
      chunkGeneration: sql`${personalityDocuments.chunkGeneration} + 1`,
      embeddedCount: 0,
      updatedAt: new Date(),
    })
    .where(eq(personalityDocuments.id, doc.id));
  return ids;
}

/** All of a document's chunks as one text, in order, the way the job moderates them when it made them. */
export async function readChunkTexts(db: Database, documentId: string): Promise<string> {
  const rows = await db
    .select({ content: personalityDocumentChunks.content })
    .from(personalityDocumentChunks)
    .where(eq(personalityDocumentChunks.documentId, documentId))
    .orderBy(asc(personalityDocumentChunks.chunkIndex));
  return rows.map((r) => r.content).join('\n\n');
}

export async function listChunks(db: Database, documentId: string, offset: number, limit: number) {
  return db
    .select({ id: personalityDocumentChunks.id, chunkIndex: personalityDocumentChunks.chunkIndex, content: personalityDocumentChunks.content })
    .from(personalityDocumentChunks)
    .where(
      and(
        eq(personalityDocumentChunks.documentId, documentId),
        gte(personalityDocumentChunks.chunkIndex, offset),
        lt(personalityDocumentChunks.chunkIndex, offset + limit),
      ),
    )
    .orderBy(asc(personalityDocumentChunks.chunkIndex));
}

/** What the asker's conversations may draw on (private documents count only for the owner). */
export async function knowledgeCounts(db: Database, personalityId: string, viewerId: string | null) {
  const rows = await db
    .select({
      documents: sql<number>`count(*)::int`,
      chunks: sql<number>`coalesce(sum(${personalityDocuments.chunkCount}), 0)::int`,
      processing: sql<number>`(count(*) filter (where ${personalityDocuments.processingState} in ('queued', 'processing')))::int`,
    })
    .from(personalityDocuments)
    .where(and(eq(personalityDocuments.personalityId, personalityId), usableBy(viewerId)));
  return rows[0] ?? { documents: 0, chunks: 0, processing: 0 };
}
