// How a personality's sharing level and voice read on its card.
import { ELEVENLABS_PRESETS } from '../../../../shared/limits';
import type { SharingType } from '../../../../shared/limits';
import { effectiveSharingType } from '../../../../shared/personality-rules';
import type { Personality } from '../../../../shared/schemas/personality';

export const SHARING_LABELS: Record<SharingType, string> = {
  public: 'Public',
  shared: 'Shared',
  private: 'Private',
};

export const PROVIDER_LABELS = { default: 'Default voice', openai: 'OpenAI', elevenlabs: 'ElevenLabs' } as const;

/** The server already applies the spec's fallback; applying it again keeps old rows honest. */
export function sharingOf(p: Pick<Personality, 'sharingType' | 'isPublic'>): SharingType {
  return effectiveSharingType(p.sharingType, p.isPublic);
}

export function voiceLabel(p: Pick<Personality, 'voiceProvider' | 'voice' | 'voiceSettings'>): string {
  if (p.voiceProvider === 'openai') return `OpenAI · ${p.voice ?? 'alloy'}`;
  if (p.voiceProvider === 'elevenlabs') {
    if (p.voiceSettings?.voice_type === 'custom') return 'ElevenLabs · Custom voice';
    const preset = ELEVENLABS_PRESETS.find((x) => x.value === p.voice) ?? ELEVENLABS_PRESETS[0];
    return `ElevenLabs · ${preset.label}`;
  }
  return PROVIDER_LABELS.default;
}

/** Spec: shown for public or shared personalities the viewer does not own. */
export function isCreatedByAnother(p: Pick<Personality, 'sharingType' | 'isPublic' | 'isOwner'>): boolean {
  return !p.isOwner && sharingOf(p) !== 'private';
}
