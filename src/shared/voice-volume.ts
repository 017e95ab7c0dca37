// Spec section 9: playback volume. The user's slider (default 0.7, 0..1 step 0.1) times the
// provider adjustment (openai 1, elevenlabs 1, browser 1.2) times a per-voice multiplier
// (0.7..1.5: quieter voices are raised, louder ones lowered), times the playback gain 0.8.
export const VOICE_VOLUME_DEFAULT = 0.7;
export const VOICE_PLAYBACK_GAIN = 0.8;

export const PROVIDER_VOLUME: Record<string, number> = { openai: 1, elevenlabs: 1, browser: 1.2, embedded: 1, festival: 1 };

/** Per voice (OpenAI voice names, ElevenLabs preset ids); unknown voices 1. */
export const VOICE_VOLUME: Record<string, number> = {
  alloy: 1,
  echo: 1.1,
  fable: 1,
  onyx: 1.3,
  nova: 0.9,
  shimmer: 0.9,
  EXAVITQu4vr4xnSDxMaL: 1, // ElevenLabs female preset
  TxGEqnHWrfWFTfGW9XjX: 1.2, // ElevenLabs male preset
  flite: 0.8, // the embedded synthesizer is loud
};

/** Provider x per-voice multiplier, clamped to the spec's 0.7..1.5 per-voice range. */
export function voiceVolumeMultiplier(provider: string, voice: string): number {
  const perVoice = Math.min(1.5, Math.max(0.7, VOICE_VOLUME[voice] ?? 1));
  return Math.round((PROVIDER_VOLUME[provider] ?? 1) * perVoice * 100) / 100;
}

/** The gain an audio element gets: user volume (0 when muted) x multiplier x playback gain, at most 1. */
export function playbackVolume(userVolume: number, muted: boolean, multiplier: number): number {
  if (muted) return 0;
  return Math.min(1, Math.max(0, userVolume * multiplier * VOICE_PLAYBACK_GAIN));
}
