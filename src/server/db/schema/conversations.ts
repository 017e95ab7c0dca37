// Saved text conversations of signed-in people (anonymous visitors' conversations stay in their
// browser). Ids are random UUIDs; every read filters by the owner and by whether the personality
// is still visible to them.
import { pgTable, text, uuid, timestamp, jsonb, index } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { personalities } from './personalities';

export interface StoredDocumentReference {
  fileName: string;
  similarity: number;
  documentId: string;
  chunkIndex: number;
}

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    personalityId: uuid('personality_id')
      .notNull()
      .references(() => personalities.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversations_user_personality_idx').on(t.userId, t.personalityId, t.updatedAt)],
);

export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** user or assistant (the personality). */
    role: text('role').notNull(),
    /** message, greeting, fallback or stopped (see shared/schemas/conversations.ts). */
    kind: text('kind').notNull().default('message'),
    content: text('content').notNull(),
    documentReferences: jsonb('document_references').$type<StoredDocumentReference[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversation_messages_conversation_idx').on(t.conversationId, t.createdAt)],
);
