import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { user } from '../../db/schema/auth';
import { personalities } from '../../db/schema/personalities';
import { personalityDocuments } from '../../db/schema/documents';
import { contentFlags, type FlagSource, type FlagStatus } from '../../db/schema/moderation';
import { conversationMessages, conversations } from '../../db/schema/conversations';
import { olderThan, pageCursorOf, toPage } from '../admin/keyset-page';

export interface NewFlag {
  personalityId: string;
  documentId?: string | null;
  flaggedByUserId?: string | null;
  source: FlagSource;
  flagType: string;
  confidence: number;
  contentExcerpt: string;
  reportReason?: string | null;
  heldDocument?: boolean;
  documentWasPrivate?: boolean;
  checkedTextHash?: string | null;
}

/** Records a flag with the personality's and the document's names of the moment (kept if either is deleted later). */
export async function insertFlag(db: Database, flag: NewFlag): Promise<string> {
  const personalityName = sql<string>`coalesce((select ${personalities.name} from ${personalities} where ${personalities.id} = ${flag.personalityId}), '')`;
  const documentName = flag.documentId
    ? sql<string | null>`(select ${personalityDocuments.fileName} from ${personalityDocuments} where ${personalityDocuments.id} = ${flag.documentId})`
    : null;
  const [row] = await db
    .insert(contentFlags)
    .values({ ...flag, personalityName, documentName })
    .returning({ id: contentFlags.id });
  return row!.id;
}

const reporter = alias(user, 'reporter');

function flagQuery(db: Database) {
  return db
    .select({
      flag: contentFlags,
      /** null once the personality is deleted (the flag keeps its own copy of the name). */
      currentPersonalityName: personalities.name,
      personalityIsPublic: personalities.isPublic,
      documentFileName: personalityDocuments.fileName,
      reporterName: reporter.name,
      reporterEmail: reporter.email,
      pageCursor: pageCursorOf(contentFlags.createdAt, contentFlags.id),
    })
    .from(contentFlags)
    // A left join: a deleted personality's flags stay listed, and reviewable.
    .leftJoin(personalities, eq(personalities.id, contentFlags.personalityId))
    .leftJoin(personalityDocuments, eq(personalityDocuments.id, contentFlags.documentId))
    .leftJoin(reporter, eq(reporter.id, contentFlags.flaggedByUserId));
}

export type FlagRow = Awaited<ReturnType<ReturnType<typeof flagQuery>['execute']>>[number];

/**
 * One page of pending flags, newest first (the spec's order), after `before` (the previous page's
 * nextCursor). The content_flags_status_created index serves it: one page read, however many wait.
 */
export async function listPendingPage(db: Database, page: { size: number; before?: string }): Promise<{ rows: FlagRow[]; nextCursor: string | null }> {
  const pending = eq(contentFlags.status, 'pending');
  const rows = await flagQuery(db)
    .where(page.before ? and(pending, olderThan(contentFlags.createdAt, contentFlags.id, page.before)) : pending)
    .orderBy(desc(contentFlags.createdAt), desc(contentFlags.id))
    .limit(page.size + 1);
  return toPage(rows, page.size);
}

export async function countPending(db: Database): Promise<number> {
  const rows = await db.select({ n: count() }).from(contentFlags).where(eq(contentFlags.status, 'pending'));
  return Number(rows[0]?.n ?? 0);
}

/**
 * The latest reviews. `status <> 'pending'` is the predicate of the partial index
 * content_flags_reviewed_idx (migration 0019), written the same way so the planner can use it:
 * the latest few are read from the index instead of sorting every reviewed flag (ties on the
 * time, which the index leaves unordered, are sorted by id among those few: an incremental sort).
 */
export function recentlyReviewedQuery(db: Database, limit: number) {
  return flagQuery(db).where(ne(contentFlags.status, 'pending')).orderBy(desc(contentFlags.reviewedAt), desc(contentFlags.id)).limit(limit);
}

export async function listRecentlyReviewed(db: Database, limit: number): Promise<FlagRow[]> {
  return recentlyReviewedQuery(db, limit);
}

export async function findFlag(db: Database, id: string): Promise<FlagRow | undefined> {
  return (await flagQuery(db).where(eq(contentFlags.id, id)))[0];
}

/** Stamps the review, only while the flag is pending (two admins cannot both decide it). */
export async function reviewFlag(
  db: Database,
  id: string,
  review: { status: Exclude<FlagStatus, 'pending'>; adminNotes: string | null; reviewerId: string; at: Date },
): Promise<boolean> {
  const rows = await db
    .update(contentFlags)
    .set({ status: review.status, adminNotes: review.adminNotes, reviewedAt: review.at, reviewedByUserId: review.reviewerId })
    .where(and(eq(contentFlags.id, id), eq(contentFlags.status, 'pending')))
    .returning({ id: contentFlags.id });
  return rows.length > 0;
}

/** The flags that hold a document private: they made it private and are pending or confirmed. */
function holdingFlags(documentId: string) {
  return and(eq(contentFlags.documentId, documentId), eq(contentFlags.heldDocument, true), inArray(contentFlags.status, ['pending', 'approved']));
}

/** A document held by moderation: makes it private (its chunks follow). */
export async function holdDocument(db: Database, documentId: string): Promise<{ wasPrivate: boolean }> {
  // Already held by another open flag: its private state is the hold's, so the owner's choice is
  // the one that flag kept.
  const [open] = await db.select({ wasPrivate: contentFlags.documentWasPrivate }).from(contentFlags).where(holdingFlags(documentId)).limit(1);
  const [before] = await db.select({ isPrivate: personalityDocuments.isPrivate }).from(personalityDocuments).where(eq(personalityDocuments.id, documentId));
  await db.update(personalityDocuments).set({ isPrivate: true }).where(eq(personalityDocuments.id, documentId));
  return { wasPrivate: open ? open.wasPrivate : Boolean(before?.isPrivate) };
}

/** A cleared hold gives the document back the owner's own choice, once no other flag holds it. */
export async function releaseDocument(db: Database, documentId: string, wasPrivate: boolean): Promise<void> {
  const open = await documentHeld(db, documentId);
  if (!open) await db.update(personalityDocuments).set({ isPrivate: wasPrivate }).where(eq(personalityDocuments.id, documentId));
}

/** A pending or confirmed flag keeps the document private. */
export async function documentHeld(db: Database, documentId: string): Promise<boolean> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(contentFlags)
    .where(holdingFlags(documentId));
  return Number(rows[0]?.n ?? 0) > 0;
}

/** The decisions already on record for this text of this document (same checked-text hash). */
export async function flagStatusesForText(db: Database, documentId: string, checkedTextHash: string): Promise<FlagStatus[]> {
  const rows = await db
    .select({ status: contentFlags.status })
    .from(contentFlags)
    .where(and(eq(contentFlags.documentId, documentId), eq(contentFlags.checkedTextHash, checkedTextHash)));
  return rows.map((r) => r.status);
}

/** A reply of this personality in one of this person's saved conversations: its text, or undefined. */
export async function findOwnReply(db: Database, messageId: string, userId: string, personalityId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ content: conversationMessages.content })
    .from(conversationMessages)
    .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
    .where(
      and(
        eq(conversationMessages.id, messageId),
        eq(conversationMessages.role, 'assistant'),
        eq(conversations.userId, userId),
        eq(conversations.personalityId, personalityId),
      ),
    )
    .limit(1);
  return row?.content;
}
