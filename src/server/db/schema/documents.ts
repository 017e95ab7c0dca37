import { pgTable, text, uuid, timestamp, boolean, integer, index } from 'drizzle-orm/pg-core';
import { personalities } from './personalities';

export const personalityDocuments = pgTable(
  'personality_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    personalityId: uuid('personality_id')
      .notNull()
      .references(() => personalities.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    filePath: text('file_path'),
    content: text('content'),
    isPrivate: boolean('is_private').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('personality_documents_personality_idx').on(t.personalityId, t.createdAt)],
);

export const personalityDocumentChunks = pgTable(
  'personality_document_chunks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => personalityDocuments.id, { onDelete: 'cascade' }),
    personalityId: uuid('personality_id')
      .notNull()
      .references(() => personalities.id, { onDelete: 'cascade' }),
    chunkIndex: integer('chunk_index').notNull(),
    content: text('content').notNull(),
  },
  (t) => [index('chunks_document_idx').on(t.documentId, t.chunkIndex), index('chunks_personality_idx').on(t.personalityId)],
);
