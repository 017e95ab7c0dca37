// One SpeechPlayer for the open conversation, with the volume and mute the listener chose
// (spec section 4: the slider at 0 turns mute on; raising it turns mute off).
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { VOICE_VOLUME_DEFAULT } from '../../../../shared/voice-volume';
import { SpeechPlayer } from '../speech/speech-player';

export function useSpeechPlayer(personalityId: string, hooks: { onPlaybackStart?: (replyId: string) => void } = {}) {
  const [volume, setVolumeState] = useState(VOICE_VOLUME_DEFAULT);
  const [muted, setMuted] = useState(false);
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
        level: () => level.current,
        onActiveChange: setActive,
        onAutoplayBlocked: setAutoplayBlocked,
        onError: (message) => toast.error(message),
        onPlaybackStart: (replyId) => onPlaybackStart.current?.(replyId),
      }),
  );
  useEffect(() => () => player.dispose(), [player]);
  useEffect(() => player.levelChanged(), [player, volume, muted]);

  const setVolume = (next: number) => {
    const v = Math.round(Math.min(1, Math.max(0, next)) * 10) / 10;
    setVolumeState(v);
    setMuted(v === 0);
  };

  const toggleMute = () => {
    if (muted) {
      setMuted(false);
      // Unmuting a slider left at 0 brings back the default, or nothing would be heard.
      if (volume === 0) setVolumeState(VOICE_VOLUME_DEFAULT);
    } else {
      setMuted(true);
    }
  };

  return { player, volume, muted, active, autoplayBlocked, setVolume, toggleMute };
}
