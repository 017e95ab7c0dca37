import { sql } from 'drizzle-orm';
import { pgTable, text, uuid, timestamp, boolean, real, index } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { personalities } from './personalities';
import { personalityDocuments } from './documents';

export const FLAG_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];
export const FLAG_SOURCES = ['message', 'reply', 'document', 'report'] as const;
export type FlagSource = (typeof FLAG_SOURCES)[number];

// Content flags (spec: content_flags): from the classifier (a person's message, a reply, a
// document's text) or from a person's report. status: pending -> approved (confirmed violation)
// or rejected (false positive). Only an excerpt is kept, never a whole private document.
export const contentFlags = pgTable(
  'content_flags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // A deleted personality keeps its flags (set null), so an owner cannot erase its record of
    // confirmed violations by deleting it; personality_name keeps what admins reviewed it as.
    personalityId: uuid('personality_id').references(() => personalities.id, { onDelete: 'set null' }),
    /** The personality's name when the flag was filed (shown once the personality is deleted). */
    // The default is for processes of the release before (migration 0018); this code always sets it.
    personalityName: text('personality_name').notNull().default(''),
    documentId: uuid('document_id').references(() => personalityDocuments.id, { onDelete: 'set null' }),
    /** The document's file name when the flag was filed (shown once the document is deleted; migration 0020). */
    documentName: text('document_name'),
    flaggedByUserId: text('flagged_by_user_id').references(() => user.id, { onDelete: 'set null' }),
    source: text('source').$type<FlagSource>().notNull(),
    flagType: text('flag_type').notNull(),
    confidence: real('confidence').notNull(),
    contentExcerpt: text('content_excerpt').notNull(),
    reportReason: text('report_reason'),
    /**
     * sha256 of the checked text that was flagged (a document's window, normalized): a false
     * positive on the same text is not flagged again when the document is processed again.
     */
    checkedTextHash: text('checked_text_hash'),
    /** The flag made its document private (a false positive gives it back). */
    heldDocument: boolean('held_document').notNull().default(false),
    /** The owner's own choice when the flag held the document: a false positive restores it (never publishes a private one). */
    documentWasPrivate: boolean('document_was_private').notNull().default(false),
    status: text('status').$type<FlagStatus>().notNull().default('pending'),
    adminNotes: text('admin_notes'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedByUserId: text('reviewed_by_user_id').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('content_flags_status_created_idx').on(t.status, t.createdAt),
    index('content_flags_document_idx').on(t.documentId),
    // Migration 0019. "Recently Reviewed": the latest few reviews, read from this index instead of
    // sorting every reviewed flag (its predicate is the query's, moderation.repository.ts).
    index('content_flags_reviewed_idx').on(t.reviewedAt.desc()).where(sql`status <> 'pending'`),
    // The foreign keys a delete looks up: deleting a personality or a user sets these to null,
    // and without an index each delete read every flag.
    index('content_flags_personality_idx').on(t.personalityId),
    index('content_flags_flagged_by_idx').on(t.flaggedByUserId),
    index('content_flags_reviewed_by_idx').on(t.reviewedByUserId),
  ],
);
