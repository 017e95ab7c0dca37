import { pgTable, text, uuid, timestamp, unique, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { user } from './auth';
import { personalities } from './personalities';

export const personalityShares = pgTable(
  'personality_shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    personalityId: uuid('personality_id')
      .notNull()
      .references(() => personalities.id, { onDelete: 'cascade' }),
    sharedWithUserId: text('shared_with_user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    sharedByUserId: text('shared_by_user_id').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('personality_shares_unique').on(t.personalityId, t.sharedWithUserId),
    index('personality_shares_with_idx').on(t.sharedWithUserId),
  ],
);

// A request outlives its personality (admins still see the history): personality_id is set to
// null on delete and the name is snapshotted for display.
export const personalityPublicRequests = pgTable(
  'personality_public_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    personalityId: uuid('personality_id').references(() => personalities.id, { onDelete: 'set null' }),
    personalityNameSnapshot: text('personality_name_snapshot'),
    requestedByUserId: text('requested_by_user_id').references(() => user.id, { onDelete: 'set null' }),
    requestMessage: text('request_message'),
    status: text('status').notNull().default('pending'),
    reviewedByUserId: text('reviewed_by_user_id').references(() => user.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Only one pending request per personality, enforced by the database.
    uniqueIndex('public_requests_one_pending').on(t.personalityId).where(sql`status = 'pending'`),
    index('public_requests_status_idx').on(t.status, t.createdAt),
    // Foreign keys a delete looks up (migration 0019).
    index('public_requests_personality_idx').on(t.personalityId),
    index('public_requests_requested_by_idx').on(t.requestedByUserId),
    index('public_requests_reviewed_by_idx').on(t.reviewedByUserId),
  ],
);
