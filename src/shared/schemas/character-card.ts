// Character Card V2/V3 (chara_card_v2 / chara_card_v3): what an import brings, what the preview
// shows, and the lorebook kept for export. Browser-safe; the parser lives on the server.
import { z } from 'zod';

/** One lorebook entry as kept for export (the fields SillyTavern and the V2 spec define). */
export interface CardBookEntry {
  keys: string[];
  content: string;
  enabled: boolean;
  insertion_order: number;
  name?: string;
  comment?: string;
  case_sensitive?: boolean;
  priority?: number;
  id?: number;
  selective?: boolean;
  secondary_keys?: string[];
  constant?: boolean;
  position?: 'before_char' | 'after_char';
}

export interface CardBook {
  name?: string;
  description?: string;
  scan_depth?: number;
  token_budget?: number;
  recursive_scanning?: boolean;
  entries: CardBookEntry[];
}

/** An imported card's fields Kindred does not use, kept for export (server/modules/character-cards/card-extras.ts). */
export interface CardExtras {
  mes_example?: string;
  creator_notes?: string;
  alternate_greetings?: string[];
  tags?: string[];
  creator?: string;
  character_version?: string;
  extensions?: Record<string, unknown>;
}

export const cardPreviewSchema = z.object({
  name: z.string(),
  description: z.string(),
  greeting: z.string(),
  /** Behaviour instructions made from personality, scenario, system_prompt, post_history_instructions. */
  behaviorInstructions: z.string(),
  lorebookEntries: z.number().int(),
  hasImage: z.boolean(),
  /** The description was longer than a personality's: the rest opens the behaviour instructions. */
  descriptionContinued: z.boolean(),
  spec: z.enum(['chara_card_v1', 'chara_card_v2', 'chara_card_v3']),
});
export type CardPreview = z.infer<typeof cardPreviewSchema>;

export const cardPreviewResponseSchema = z.object({ preview: cardPreviewSchema });

// Kept in a module without zod, so the dashboard's first JavaScript need not load zod for it.
export { CARD_FILE_FIELD } from '../character-card-fields';
