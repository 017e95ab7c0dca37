// How the voice chosen in the create/edit form is stored in voice_settings (spec sections 3, 5
// and 9): openai defaults to alloy, elevenlabs to the female preset.
import { ELEVENLABS_PRESETS, OPENAI_VOICES, type VoiceProvider } from './limits';

export interface StoredVoiceSettings {
  voice_id?: string;
  provider?: string;
  voice_type?: string;
  openai_voice?: string;
  type?: string;
  enable_phonetic_transcription?: boolean;
}

export function defaultVoiceFor(provider: VoiceProvider): string | null {
  if (provider === 'openai') return 'alloy';
  if (provider === 'elevenlabs') return 'female';
  return null;
}

export function buildVoiceSettings(
  provider: VoiceProvider,
  voice: string | null | undefined,
  phonetic: boolean | undefined,
  customVoiceId: string | null,
): StoredVoiceSettings {
  if (provider === 'openai') {
    const chosen = OPENAI_VOICES.some((v) => v.value === voice) ? voice! : 'alloy';
    return { provider, openai_voice: chosen, voice_id: chosen, enable_phonetic_transcription: Boolean(phonetic) };
  }
  if (provider === 'elevenlabs') {
    const preset = ELEVENLABS_PRESETS.find((p) => p.value === voice);
    if (!preset && voice && voice === customVoiceId) {
      return { provider, voice_id: customVoiceId, voice_type: 'custom' };
    }
    const p = preset ?? ELEVENLABS_PRESETS[0];
    return { provider, voice_id: p.voiceId, voice_type: 'preset', type: p.value, openai_voice: p.openaiVoice };
  }
  return { provider: 'default' };
}

/** The value the form's voice select shows for stored settings. */
export function voiceFromSettings(provider: VoiceProvider, s: StoredVoiceSettings | null | undefined): string | null {
  if (!s) return defaultVoiceFor(provider);
  if (provider === 'openai') return s.openai_voice ?? 'alloy';
  if (provider === 'elevenlabs') {
    if (s.voice_type === 'custom') return s.voice_id ?? null;
    return s.type ?? ELEVENLABS_PRESETS.find((p) => p.voiceId === s.voice_id)?.value ?? 'female';
  }
  return null;
}

/** Spec section 5: phonetic (pronunciation coaching) mode when the name says so or the setting is on. */
export function isPhoneticMode(p: { name: string; voiceSettings?: StoredVoiceSettings | null }): boolean {
  return /pronunciation|accent/i.test(p.name) || p.voiceSettings?.enable_phonetic_transcription === true;
}
