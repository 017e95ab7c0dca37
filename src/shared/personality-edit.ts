// A personality's editable fields as the edit form holds them (blank text as '', the provider's
// default voice filled in). The form and the server derive them from a personality by this one
// function, so the server can tell whether a field the editor changed was also changed elsewhere
// after the form was opened: a save is refused only then, not because of a change to another
// field, a sharing change or an admin's approval (which move updated_at too).
import { defaultVoiceFor } from './voice-rules';
import type { VoiceProvider } from './limits';
import type { Personality } from './schemas/personality';

export interface EditableFields {
  name: string;
  description: string;
  behaviorInstructions: string;
  /** The first message of every chat; blank means the generic greeting. */
  greeting: string;
  voiceProvider: VoiceProvider;
  voice: string | null;
  agentId: string;
  enablePhoneticTranscription: boolean;
}

export const EDITABLE_KEYS = [
  'name',
  'description',
  'behaviorInstructions',
  'greeting',
  'voiceProvider',
  'voice',
  'agentId',
  'enablePhoneticTranscription',
] as const satisfies readonly (keyof EditableFields)[];

/** The voice settings are saved together (one column): a change to any of them changes them all. */
export const VOICE_KEYS = ['voiceProvider', 'voice', 'agentId', 'enablePhoneticTranscription'] as const satisfies readonly (keyof EditableFields)[];

type EditableSource = Pick<Personality, 'name' | 'description' | 'behaviorInstructions' | 'greeting' | 'voiceProvider' | 'voice' | 'agentId' | 'voiceSettings'>;

export function editableFieldsOf(p: EditableSource): EditableFields {
  return {
    name: p.name,
    description: p.description ?? '',
    behaviorInstructions: p.behaviorInstructions ?? '',
    greeting: p.greeting ?? '',
    voiceProvider: p.voiceProvider,
    voice: p.voice ?? defaultVoiceFor(p.voiceProvider),
    agentId: p.agentId ?? '',
    enablePhoneticTranscription: Boolean(p.voiceSettings?.enable_phonetic_transcription),
  };
}

/** The fields of `expected` (values the editor started from) that no longer hold in `now`. */
export function fieldsChangedSince(expected: Partial<EditableFields>, now: EditableFields): (keyof EditableFields)[] {
  return EDITABLE_KEYS.filter((key) => key in expected && expected[key] !== now[key]);
}
