import { pgTable, date, integer, timestamp } from 'drizzle-orm/pg-core';

// The spec's elevenlabs_usage: ElevenLabs characters spent per UTC day, for every user together.
// Rows are reserved atomically before a request is sent (modules/voice/voice.repository.ts).
export const elevenlabsUsage = pgTable('elevenlabs_usage', {
  date: date('date', { mode: 'string' }).primaryKey(),
  creditsUsed: integer('credits_used').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
