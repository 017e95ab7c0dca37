// The create/edit form's values and the pure rules behind them (spec section 5): the provider
// defaults to default; choosing openai sets the voice to alloy, elevenlabs to the female preset.
import { defaultVoiceFor } from '../../../../shared/voice-rules';
import type { VoiceProvider } from '../../../../shared/limits';
import type { CreatePersonalityInput, Personality } from '../../../../shared/schemas/personality';

export interface PersonalityFormValues {
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
