import { z } from 'zod';
import { limits, VOICE_PROVIDERS, SHARING_TYPES } from '../limits';
import { messages } from '../messages';
import { cleanName, hasVisibleText } from '../text/visible';
import { optionalText } from './common';

// Saved without bidi overrides and isolates (they could show "Albert \u202Enietsnie" as "Albert
// einstein"); required means something shows, not only that something was typed (../text/visible.ts).
const name = z
  .string({ error: messages.personality.nameRequired })
  .transform(cleanName)
  .pipe(
    z
      .string()
      .min(1, messages.personality.nameRequired)
      .max(limits.personalityNameMax, `Name must be at most ${limits.personalityNameMax} characters`)
      .refine(hasVisibleText, messages.personality.nameRequired),
  );

const voiceFields = {
  description: optionalText(limits.personalityDescriptionMax, 'Description'),
  behaviorInstructions: optionalText(limits.behaviorInstructionsMax, 'Behavior instructions'),
  /** The first message of every chat (blank: the generic greeting). */
  greeting: optionalText(limits.personalityGreetingMax, 'Greeting'),
  voiceProvider: z.enum(VOICE_PROVIDERS).optional(),
  /** openai: a voice name (alloy...); elevenlabs: a preset (female, male) or a custom voice id. */
  voice: z.string().trim().max(100).nullable().optional(),
  agentId: optionalText(limits.agentIdMax, 'Agent ID'),
  enablePhoneticTranscription: z.boolean().optional(),
};

export const createPersonalitySchema = z.strictObject({ name, ...voiceFields });
export const updatePersonalitySchema = z.strictObject({
  name: name.optional(),
  ...voiceFields,
  /**
   * The updatedAt the editor started from: when the personality has changed since (another tab,
   * a voice clone), the save is refused with 409 instead of overwriting that change.
   */
  expectedUpdatedAt: z.iso.datetime({ offset: true }).optional(),
  /**
   * The values the editor started from, for the fields it changes (as editableFieldsOf gives
   * them): when one of those was changed elsewhere since, the save is refused with 409. A change
   * to another field (or a sharing change) does not refuse it. Preferred to expectedUpdatedAt.
   */
  expected: z
    .strictObject({
      // Echoes of saved values: bounded by the largest field, not validated as new input is.
      name: z.string().max(limits.behaviorInstructionsMax).optional(),
      description: z.string().max(limits.behaviorInstructionsMax).optional(),
      behaviorInstructions: z.string().max(limits.behaviorInstructionsMax).optional(),
      greeting: z.string().max(limits.behaviorInstructionsMax).optional(),
      voiceProvider: z.enum(VOICE_PROVIDERS).optional(),
      voice: z.string().max(limits.agentIdMax).nullable().optional(),
      agentId: z.string().max(limits.behaviorInstructionsMax).optional(),
      enablePhoneticTranscription: z.boolean().optional(),
    })
    .optional(),
});
export type CreatePersonalityInput = z.input<typeof createPersonalitySchema>;
export type UpdatePersonalityInput = z.input<typeof updatePersonalitySchema>;

export const voiceSettingsSchema = z
  .object({
    voice_id: z.string().optional(),
    provider: z.string().optional(),
    voice_type: z.string().optional(),
    openai_voice: z.string().optional(),
    type: z.string().optional(),
    enable_phonetic_transcription: z.boolean().optional(),
  })
  .nullable();

export const personalitySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** In the library (GET /api/personalities), null for a personality the caller does not own. */
  behaviorInstructions: z.string().nullable(),
  greeting: z.string().nullable(),
  /** An avatar image exists (GET /api/personalities/{id}/avatar); from an imported PNG card. */
  hasAvatar: z.boolean(),
  voiceProvider: z.enum(VOICE_PROVIDERS),
  /** The voice the UI shows in its select (see `voice` in the create schema). */
  voice: z.string().nullable(),
  voiceSettings: voiceSettingsSchema,
  agentId: z.string().nullable(),
  customVoiceId: z.string().nullable(),
  sharingType: z.enum(SHARING_TYPES),
  isPublic: z.boolean(),
  displayOrder: z.number().nullable(),
  isOwner: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Personality = z.infer<typeof personalitySchema>;

export const personalityListSchema = z.object({ personalities: z.array(personalitySchema) });
export const personalityResponseSchema = z.object({ personality: personalitySchema });
