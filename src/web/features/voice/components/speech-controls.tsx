// The listener's controls shared by Self-paced and Open Mic Chat: mute and the volume slider (spec
// section 4: the slider at 0 is mute, raising it unmutes), and the "Tap the Play button" prompt
// when the browser blocked autoplay.
import { PlayIcon, Volume2Icon, VolumeXIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import type { useSpeechPlayer } from '../hooks/use-speech-player';

type Speech = ReturnType<typeof useSpeechPlayer>;

export function VolumeControls({ speech }: { speech: Speech }) {
  const level = speech.muted ? 0 : speech.volume;
  return (
    <div className="flex items-center gap-2">
      <Button variant="outline" size="icon" onClick={speech.toggleMute} aria-label={speech.muted ? 'Unmute' : 'Mute'} aria-pressed={speech.muted}>
        {speech.muted ? <VolumeXIcon aria-hidden /> : <Volume2Icon aria-hidden />}
      </Button>
      <input
        type="range"
        min={0}
        max={1}
        step={0.1}
        value={level}
        onChange={(e) => speech.setVolume(Number(e.currentTarget.value))}
        aria-label="Volume"
        aria-valuetext={`${Math.round(level * 100)}%`}
        className="h-6 w-32 cursor-pointer accent-primary"
      />
    </div>
  );
}

export function AutoplayBlockedAlert({ speech }: { speech: Speech }) {
  if (!speech.autoplayBlocked) return null;
  return (
    <Alert role="alert">
      <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
        <span>{messages.voice.tapToPlay}</span>
        <Button size="sm" onClick={() => speech.player.resume()}>
          <PlayIcon aria-hidden />
          Play
        </Button>
      </AlertDescription>
    </Alert>
  );
}
