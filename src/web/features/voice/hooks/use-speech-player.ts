// One SpeechPlayer for the open conversation, with the volume and mute the listener chose
// (spec section 4: the slider at 0 turns mute on; raising it turns mute off). The volume and mute
// are one setting for the whole app, remembered in this browser (voice-level-storage.ts).
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { VOICE_VOLUME_DEFAULT } from '../../../../shared/voice-volume';
import { SpeechPlayer } from '../speech/speech-player';
import { readVoiceLevel, toSliderStep, writeVoiceLevel } from './voice-level-storage';

export interface SpeechPlayerHooks {
  onPlaybackStart?: (replyId: string) => void;
  /**
   * Keep what was spoken so Replay plays it without new synthesis (the default: Self-paced Chat).
   * An open-mic call has no Replay and would hold every sentence for the whole call: false.
   */
  keepForReplay?: boolean;
}

export function useSpeechPlayer(personalityId: string, hooks: SpeechPlayerHooks = {}) {
  const [initialLevel] = useState(readVoiceLevel);
  const [volume, setVolumeState] = useState(initialLevel.volume);
  const [muted, setMuted] = useState(initialLevel.muted);
  const [active, setActive] = useState(false);
  const [autoplayBlocked, setAutoplayBlocked] = useState(false);
  const level = useRef({ volume, muted });
  level.current = { volume, muted };
  const onPlaybackStart = useRef(hooks.onPlaybackStart);
  onPlaybackStart.current = hooks.onPlaybackStart;

  const [player] = useState(
    () =>
      new SpeechPlayer({
        personalityId,
        keepForReplay: hooks.keepForReplay ?? true,
        level: () => level.current,
        onActiveChange: setActive,
        onAutoplayBlocked: setAutoplayBlocked,
        onError: (message) => toast.error(message),
        onPlaybackStart: (replyId) => onPlaybackStart.current?.(replyId),
      }),
  );
  useEffect(() => () => player.dispose(), [player]);
  useEffect(() => player.levelChanged(), [player, volume, muted]);

  const setLevel = (next: { volume: number; muted: boolean }) => {
    setVolumeState(next.volume);
    setMuted(next.muted);
    writeVoiceLevel(next);
  };

  const setVolume = (next: number) => {
    const v = toSliderStep(next);
    setLevel({ volume: v, muted: v === 0 });
  };

  const toggleMute = () => {
    // Unmuting a slider left at 0 brings back the default, or nothing would be heard.
    if (muted) setLevel({ volume: volume === 0 ? VOICE_VOLUME_DEFAULT : volume, muted: false });
    else setLevel({ volume, muted: true });
  };

  return { player, volume, muted, active, autoplayBlocked, setVolume, toggleMute };
}
