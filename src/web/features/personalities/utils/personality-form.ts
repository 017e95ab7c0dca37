// The create/edit form's values and the pure rules behind them (spec section 5): the provider
// defaults to default; choosing openai sets the voice to alloy, elevenlabs to the female preset.
import { defaultVoiceFor } from '../../../../shared/voice-rules';
import { editableFieldsOf, VOICE_KEYS, type EditableFields } from '../../../../shared/personality-edit';
import type { VoiceProvider } from '../../../../shared/limits';
import type { CreatePersonalityInput, Personality, UpdatePersonalityInput } from '../../../../shared/schemas/personality';

/** The form's values: a personality's editable fields (shared with the server's edit check). */
export type PersonalityFormValues = EditableFields;

export const emptyFormValues: PersonalityFormValues = {
  name: '',
  description: '',
  behaviorInstructions: '',
  greeting: '',
  voiceProvider: 'default',
  voice: null,
  agentId: '',
  enablePhoneticTranscription: false,
};

export function formValuesFrom(p: Personality): PersonalityFormValues {
  return editableFieldsOf(p);
}

/** Switching provider resets the voice to that provider's default. */
export function withProvider(values: PersonalityFormValues, provider: VoiceProvider): PersonalityFormValues {
  if (provider === values.voiceProvider) return values;
  return { ...values, voiceProvider: provider, voice: defaultVoiceFor(provider) };
}

/**
 * The request body for these values. Fields that belong to another provider are not sent
 * (the agent id only matters for elevenlabs, phonetic transcription only for openai).
 */
export function toRequestBody(values: PersonalityFormValues): CreatePersonalityInput {
  const provider = values.voiceProvider;
  const body: CreatePersonalityInput = {
    name: values.name.trim(),
    description: values.description,
    behaviorInstructions: values.behaviorInstructions,
    greeting: values.greeting,
    voiceProvider: provider,
    voice: provider === 'default' ? null : values.voice,
    agentId: provider === 'elevenlabs' ? values.agentId : null,
  };
  if (provider === 'openai') body.enablePhoneticTranscription = values.enablePhoneticTranscription;
  return body;
}

/**
 * An edit's request body: only what the person changed from `original` (the form as opened), so a
 * change made elsewhere meanwhile to another field stands; the voice settings go together when any
 * of them changed. `expected` carries those fields' values as the form opened them: the server
 * refuses the save (409) if one of them was changed elsewhere since, rather than overwrite it.
 */
export function toUpdateBody(values: PersonalityFormValues, original: PersonalityFormValues): UpdatePersonalityInput {
  const now = toRequestBody(values) as Record<string, unknown>;
  const before = toRequestBody(original) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  const expected: Partial<EditableFields> = {};
  const voiceKeys = VOICE_KEYS as readonly string[];
  for (const key of Object.keys(now)) {
    if (now[key] !== before[key] && !voiceKeys.includes(key)) {
      body[key] = now[key];
      (expected as Record<string, unknown>)[key] = original[key as keyof EditableFields];
    }
  }
  if (VOICE_KEYS.some((key) => now[key] !== before[key])) {
    for (const key of VOICE_KEYS) {
      if (key in now) body[key] = now[key];
      (expected as Record<string, unknown>)[key] = original[key];
    }
  }
  body.expected = expected;
  return body as UpdatePersonalityInput;
}

/**
 * The form after the personality changed elsewhere while it was open (the list was read again):
 * fields the person has not touched take the new values; those they edited keep their edits.
 */
export function rebaseForm(values: PersonalityFormValues, original: PersonalityFormValues, fresh: PersonalityFormValues): PersonalityFormValues {
  const out = { ...values } as Record<string, unknown>;
  for (const key of Object.keys(fresh) as (keyof PersonalityFormValues)[]) {
    if (values[key] === original[key]) out[key] = fresh[key];
  }
  return out as unknown as PersonalityFormValues;
}
