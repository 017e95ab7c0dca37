import { pgTable, text, uuid, timestamp, integer } from 'drizzle-orm/pg-core';
import { user } from './auth';

export const userFeedback = pgTable('user_feedback', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
  category: text('category').notNull().default('general'),
  rating: integer('rating'),
  feedback: text('feedback').notNull(),
  userAgent: text('user_agent'),
  url: text('url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
