// The spec's personality_questions: every question asked in a chat, for the owner to read.
import { pgTable, text, uuid, timestamp, index } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { personalities } from './personalities';

export const personalityQuestions = pgTable(
  'personality_questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    personalityId: uuid('personality_id')
      .notNull()
      .references(() => personalities.id, { onDelete: 'cascade' }),
    questionText: text('question_text').notNull(),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the asker was signed in ("Registered User"). */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('personality_questions_personality_idx').on(t.personalityId, t.askedAt),
    // Migration 0019: deleting a user sets user_id to null, which without it read every question.
    index('personality_questions_user_idx').on(t.userId),
  ],
);
