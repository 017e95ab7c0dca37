import { pgTable, text, uuid, timestamp, boolean, integer, jsonb, index } from 'drizzle-orm/pg-core';
import { user } from './auth';
import type { CardBook, CardExtras } from '../../../shared/schemas/character-card';

export interface VoiceSettings {
  voice_id?: string;
  provider?: string;
  voice_type?: string;
  openai_voice?: string;
  type?: string;
  enable_phonetic_transcription?: boolean;
}

// The spec's famous_personalities.
export const personalities = pgTable(
  'personalities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    behaviorInstructions: text('behavior_instructions'),
    voiceSettings: jsonb('voice_settings').$type<VoiceSettings>(),
    voiceProvider: text('voice_provider'),
    agentId: text('agent_id'),
    customVoiceId: text('custom_voice_id'),
    sharingType: text('sharing_type'),
    isPublic: boolean('is_public').notNull().default(false),
    displayOrder: integer('display_order'),
    /** Opens every chat instead of the generic greeting when set (a card's first_mes). */
    greeting: text('greeting'),
    /** Storage key of the avatar (a PNG card's image, validated and rebuilt from its chunks). */
    avatarKey: text('avatar_key'),
    /** The imported card's lorebook settings (entry keys, names, order), for export. */
    cardBook: jsonb('card_book').$type<CardBook>(),
    /** An imported card's fields Kindred does not use, written back on export (card-extras.ts). */
    cardExtras: jsonb('card_extras').$type<CardExtras>(),
    /**
     * The knowledge document holding the lorebook's entries; exported while it exists. The
     * foreign key (on delete set null) is in migration 0009; not declared here, since
     * documents.ts already imports this file.
     */
    lorebookDocumentId: uuid('lorebook_document_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('personalities_user_id_idx').on(t.userId), index('personalities_public_idx').on(t.isPublic, t.sharingType)],
);
