// The listener's volume and mute: one setting for the whole app in this browser (localStorage),
// shared by Self-paced and Open Mic Chat and kept across reloads. Anything stored that is not a
// volume of 0 to 1 gives the spec's default (0.7, not muted). Storage can be unavailable (privacy
// modes, quotas): then the setting lasts as long as the page.
import { VOICE_VOLUME_DEFAULT } from '../../../../shared/voice-volume';

export const VOICE_SETTING_KEY = 'kindred:voice-level';

export interface VoiceLevel {
  volume: number;
  muted: boolean;
}

/** On the slider's steps (0 to 1 by 0.1). */
export const toSliderStep = (volume: number) => Math.round(Math.min(1, Math.max(0, volume)) * 10) / 10;

const DEFAULT_LEVEL: VoiceLevel = { volume: VOICE_VOLUME_DEFAULT, muted: false };

export function readVoiceLevel(): VoiceLevel {
  let stored: unknown;
  try {
    stored = JSON.parse(window.localStorage.getItem(VOICE_SETTING_KEY) ?? 'null');
  } catch {
    return DEFAULT_LEVEL;
  }
  if (typeof stored !== 'object' || stored === null) return DEFAULT_LEVEL;
  const { volume, muted } = stored as Record<string, unknown>;
  if (typeof volume !== 'number' || !Number.isFinite(volume) || volume < 0 || volume > 1) return DEFAULT_LEVEL;
  const onStep = toSliderStep(volume);
  // The slider at 0 is mute (spec section 4), whatever else was stored.
  return { volume: onStep, muted: muted === true || onStep === 0 };
}

export function writeVoiceLevel(level: VoiceLevel): void {
  try {
    window.localStorage.setItem(VOICE_SETTING_KEY, JSON.stringify(level));
  } catch {
    // Nothing to do: the setting is forgotten at the next reload.
  }
}
