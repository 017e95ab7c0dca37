// Background jobs live in the database (design.md: scale-out), claimed with FOR UPDATE SKIP LOCKED,
// so any app process may run them and a job outlives the process that started it.
import { pgTable, text, uuid, timestamp, integer, jsonb, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { personalityDocuments } from './documents';

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** Jobs about a document disappear with it (deleting a document or its personality). */
    documentId: uuid('document_id').references(() => personalityDocuments.id, { onDelete: 'cascade' }),
    /** At most one queued or running job per key (e.g. one per document). */
    dedupeKey: text('dedupe_key'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** queued | running | failed (done jobs are deleted). */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    /** A fresh token per claim: writes check it, so a worker that lost its lease cannot commit. */
    lockedBy: text('locked_by'),
    /** Lease: a running job whose lease has expired (its process died) is claimed again. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_claim_idx').on(t.status, t.runAfter),
    uniqueIndex('jobs_active_dedupe_unique').on(t.dedupeKey).where(sql`status in ('queued', 'running')`),
    index('jobs_document_idx').on(t.documentId),
  ],
);
