// The Self-paced recorder's life: start (the microphone's errors as the spec's messages), a
// seconds counter, the automatic stop at the limit (with a warning), and stop or cancel. Between
// Stop and the finished recording (the capture is flushed and encoded, ~100 ms) it is `finishing`:
// the turn has begun, so the page says Processing and a second recording cannot start over it.
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
  const [finishing, setFinishing] = useState(false);
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
    setFinishing(true);
    try {
      let result: Recording;
      try {
        result = await active.stop();
      } catch {
        toast.error(messages.voice.processRecordingFailed);
        return;
      }
      // Handed over before `finishing` ends, so the caller's own busy state takes over in the same render.
      latest.current.onRecorded(result);
    } finally {
      setFinishing(false);
    }
  }, []);

  const start = useCallback(async (): Promise<boolean> => {
    if (recorder.current || starting || finishing) return false;
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
  }, [starting, finishing, stop]);

  // Leaving the conversation releases the microphone.
  useEffect(
    () => () => {
      clearTimer();
      recorder.current?.cancel();
      recorder.current = null;
    },
    [],
  );

  return { recording, starting, finishing, seconds, start, stop };
}
