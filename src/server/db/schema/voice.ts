import { pgTable, date, index, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { personalities } from './personalities';

// The spec's elevenlabs_usage: ElevenLabs characters spent per UTC day, for every user together.
// Rows are reserved atomically before a request is sent (modules/voice/voice.repository.ts).
export const elevenlabsUsage = pgTable('elevenlabs_usage', {
  date: date('date', { mode: 'string' }).primaryKey(),
  creditsUsed: integer('credits_used').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// Who confirmed, and when, that they have the right to clone a voice (issue 13): kept when the
// personality is deleted (the consent is the record that the clone was allowed), gone with the user.
export const voiceCloneConsents = pgTable('voice_clone_consents', {
  id: uuid('id').primaryKey().defaultRandom(),
  personalityId: uuid('personality_id').references(() => personalities.id, { onDelete: 'set null' }),
  userId: text('user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' }),
  voiceId: text('voice_id').notNull(),
  voiceName: text('voice_name').notNull(),
  sampleSha256: text('sample_sha256').notNull(),
  consentText: text('consent_text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// Characters counted so far for each agent call, shared by every app process
// (modules/voice/agent-call-credits.ts). Rows are dropped once older than any real call.
export const agentCallTallies = pgTable(
  'agent_call_tallies',
  {
    callId: uuid('call_id').primaryKey(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    chars: integer('chars').notNull().default(0),
  },
  (t) => [index('agent_call_tallies_issued_at_idx').on(t.issuedAt)],
);
