// Between Stop and the finished recording (the capture flushed and encoded), the recorder is
// `finishing`: a second recording cannot start over the turn that has begun, and the recording is
// handed over in the same tick `finishing` ends (so the page never shows Ready in between).
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PcmRecorder, Recording } from '../audio/pcm-recorder';
import { useChatRecorder } from './use-chat-recorder';

const started: { finish: (r: Recording) => void }[] = [];

vi.mock('../audio/microphone-errors', () => ({
  microphoneSupported: () => true,
  microphoneErrorMessage: () => 'microphone error',
  browserHints: () => ({}),
}));
vi.mock('../audio/pcm-recorder', () => ({
  startPcmRecorder: async (): Promise<PcmRecorder> => {
    let finish!: (r: Recording) => void;
    const done = new Promise<Recording>((resolve) => (finish = resolve));
    started.push({ finish });
    return { stop: () => done, cancel: () => {} };
  },
}));

describe('useChatRecorder', () => {
  it('is finishing from Stop until the recording is handed over, and will not start again meanwhile', async () => {
    const recorded: Recording[] = [];
    const finishingWhenHanded: boolean[] = [];
    const { result } = renderHook(() =>
      useChatRecorder({
        maxSeconds: 60,
        onRecorded: (r) => {
          recorded.push(r);
          finishingWhenHanded.push(result.current.finishing);
        },
      }),
    );
    await act(async () => {
      expect(await result.current.start()).toBe(true);
    });
    expect(result.current.recording).toBe(true);

    let stopping!: Promise<void>;
    act(() => {
      stopping = result.current.stop();
    });
    expect(result.current.recording).toBe(false);
    expect(result.current.finishing).toBe(true);
    // A quick second click lands while the first recording is still being encoded: refused.
    await act(async () => {
      expect(await result.current.start()).toBe(false);
    });
    expect(started).toHaveLength(1);

    const wav = new Uint8Array([1, 2, 3]);
    await act(async () => {
      started[0]!.finish({ wav, seconds: 2 });
      await stopping;
    });
    expect(recorded).toEqual([{ wav, seconds: 2 }]);
    // Handed over while still finishing; finished afterwards.
    expect(finishingWhenHanded).toEqual([true]);
    expect(result.current.finishing).toBe(false);

    // Then a new recording may start.
    await act(async () => {
      expect(await result.current.start()).toBe(true);
    });
    expect(started).toHaveLength(2);
  });
});
