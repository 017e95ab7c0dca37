// The Self-paced recorder's life: start (the microphone's errors as the spec's messages), a
// seconds counter, the automatic stop at the limit (with a warning), and stop or cancel.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../../shared/messages';
import { browserHints, microphoneErrorMessage, microphoneSupported } from '../audio/microphone-errors';
import { startPcmRecorder, type PcmRecorder, type Recording } from '../audio/pcm-recorder';

interface Options {
  maxSeconds: number;
  /** A finished recording (stopped by the person or at the limit). */
  onRecorded: (recording: Recording) => void;
}

export function useChatRecorder({ maxSeconds, onRecorded }: Options) {
  const [recording, setRecording] = useState(false);
  const [starting, setStarting] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const recorder = useRef<PcmRecorder | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const latest = useRef({ onRecorded, maxSeconds });
  latest.current = { onRecorded, maxSeconds };

  const clearTimer = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  };

  const stop = useCallback(async () => {
    const active = recorder.current;
    if (!active) return;
    recorder.current = null;
    clearTimer();
    setRecording(false);
    let result: Recording;
    try {
      result = await active.stop();
    } catch {
      toast.error(messages.voice.processRecordingFailed);
      return;
    }
    latest.current.onRecorded(result);
  }, []);

  const start = useCallback(async (): Promise<boolean> => {
    if (recorder.current || starting) return false;
    if (!microphoneSupported()) {
      toast.error(messages.voice.micUnsupported);
      return false;
    }
    setStarting(true);
    try {
      recorder.current = await startPcmRecorder();
    } catch (err) {
      toast.error(microphoneErrorMessage(err, browserHints()));
      return false;
    } finally {
      setStarting(false);
    }
    const startedAt = performance.now();
    setSeconds(0);
    setRecording(true);
    timer.current = setInterval(() => {
      const elapsed = Math.floor((performance.now() - startedAt) / 1000);
      setSeconds(elapsed);
      if (elapsed >= latest.current.maxSeconds) {
        toast.warning(messages.voice.recordingLimit(latest.current.maxSeconds));
        void stop();
      }
    }, 200);
    return true;
  }, [starting, stop]);

  // Leaving the conversation releases the microphone.
  useEffect(
    () => () => {
      clearTimer();
      recorder.current?.cancel();
      recorder.current = null;
    },
    [],
  );

  return { recording, starting, seconds, start, stop };
}
