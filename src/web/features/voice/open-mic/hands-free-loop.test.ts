// The own hands-free loop with a scripted VAD: a finished turn is transcribed and sent, the reply
// is spoken sentence by sentence, its response time runs from the VAD's end of turn to the first
// audible sentence; speaking over the reply stops it and cancels the turn; silence is not a turn;
// a lost connection ends the call as dropped.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import type { SendOptions } from '../../conversation/hooks/use-chat-session';
import type { CallMode, CallStatus } from './call-types';
import { HandsFreeLoop, type HandsFreeDeps } from './hands-free-loop';
import type { VadCallbacks } from './silero-vad';

function setup(overrides: Partial<HandsFreeDeps> = {}) {
  let vad!: VadCallbacks;
  let clock = 0;
  const statuses: CallStatus[] = [];
  const modes: CallMode[] = [];
  const responseTimes: number[] = [];
  const dropped: string[] = [];
  const spoken: string[] = [];
  const track = new EventTarget() as EventTarget & { stop(): void };
  track.stop = vi.fn();
  const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
  const player = { speak: vi.fn((_id: string, s: string) => void spoken.push(s)), endReply: vi.fn(), stop: vi.fn() };
  const sends: { text: string; options: SendOptions }[] = [];
  const destroy = vi.fn(async () => {});
  const deps: HandsFreeDeps = {
    endOfTurnMs: 700,
    getStream: async () => stream,
    createVad: async (callbacks, options) => {
      vad = callbacks;
      expect(options.endOfTurnMs).toBe(700);
      return { destroy };
    },
    transcribe: vi.fn(async () => ({ text: 'Tell me a story', engine: 'openai', approximate: false })),
    send: vi.fn(async (text: string, options: SendOptions) => {
      sends.push({ text, options });
      options.onReply?.({ id: 'r1', text: 'Once upon a time. There ', final: false });
      options.onReply?.({ id: 'r1', text: 'Once upon a time. There was a sea.', final: true });
      return true;
    }),
    stopReply: vi.fn(),
    player,
    events: {
      onStatus: (s) => statuses.push(s),
      onMode: (m) => modes.push(m),
      onResponseTime: (ms) => responseTimes.push(ms),
      onDropped: (m) => dropped.push(m),
    },
    onTurnError: vi.fn(),
    now: () => clock,
    ...overrides,
  };
  const loop = new HandsFreeLoop(deps);
  return { loop, deps, vad: () => vad, statuses, modes, responseTimes, dropped, spoken, sends, player, track, destroy, tick: (ms: number) => (clock += ms) };
}

const speechAudio = new Float32Array(16000).fill(0.1);
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('HandsFreeLoop', () => {
  it('connects, sends each finished turn, speaks the reply sentence by sentence and times the response', async () => {
    const t = setup();
    await t.loop.start();
    expect(t.statuses).toEqual(['connecting', 'connected']);
    t.vad().onSpeechStart();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    const [wav] = (t.deps.transcribe as ReturnType<typeof vi.fn>).mock.calls[0]!;
    expect(Buffer.from((wav as Uint8Array).subarray(0, 4)).toString('latin1')).toBe('RIFF');
    expect(new DataView((wav as Uint8Array).buffer).getUint32(24, true)).toBe(16000);
    expect(t.sends.map((s) => s.text)).toEqual(['Tell me a story']);
    expect(t.spoken).toEqual(['Once upon a time.', 'There was a sea.']);
    expect(t.player.endReply).toHaveBeenCalledWith('r1');
    t.tick(420);
    t.loop.playbackStarted('r1');
    t.loop.playbackStarted('r1');
    expect(t.responseTimes).toEqual([420]);
  });

  it('barge-in: speech while the reply plays stops the audio, cancels the turn upstream, and listens', async () => {
    const t = setup();
    await t.loop.start();
    t.loop.setSpeaking(true);
    expect(t.modes.at(-1)).toBe('speaking');
    t.vad().onSpeechStart();
    expect(t.player.stop).toHaveBeenCalledTimes(1);
    expect(t.deps.stopReply).toHaveBeenCalledTimes(1);
    expect(t.modes.at(-1)).toBe('listening');
  });

  it('barge-in while the turn is still being transcribed aborts it: nothing is sent', async () => {
    let seen: AbortSignal | undefined;
    const t = setup({
      transcribe: (_wav, signal) =>
        new Promise((_resolve, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    });
    await t.loop.start();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    t.vad().onSpeechStart();
    await flush();
    expect(seen?.aborted).toBe(true);
    expect(t.sends).toEqual([]);
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
  });

  it('a turn with no speech in it is dropped quietly; other failures are reported and the call goes on', async () => {
    const transcribe = vi.fn().mockRejectedValueOnce(new ApiError(422, 'NO_SPEECH', 'No speech detected - try speaking louder')).mockRejectedValueOnce(new ApiError(502, 'STT_ERROR', 'Speech-to-text error: boom'));
    const t = setup({ transcribe });
    await t.loop.start();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    expect(t.deps.onTurnError).toHaveBeenCalledWith('Speech-to-text error: boom', 'error');
    expect(t.statuses.at(-1)).toBe('connected');
  });

  it('a lost network or microphone ends the call as dropped; End Call ends it quietly', async () => {
    const t = setup({ transcribe: vi.fn().mockRejectedValue(new ApiError(0, 'NETWORK', 'Failed to process recorded audio')) });
    await t.loop.start();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    await flush();
    expect(t.dropped).toEqual(['Failed to process recorded audio']);
    expect(t.destroy).toHaveBeenCalled();
    expect(t.track.stop).toHaveBeenCalled();

    const u = setup();
    await u.loop.start();
    u.track.dispatchEvent(new Event('ended'));
    await flush();
    expect(u.dropped).toEqual(['']);

    const w = setup();
    await w.loop.start();
    await w.loop.end();
    expect(w.statuses.slice(-2)).toEqual(['disconnecting', 'disconnected']);
    expect(w.dropped).toEqual([]);
  });

  it('a microphone that cannot be opened leaves the call disconnected and says why', async () => {
    const t = setup({ getStream: async () => Promise.reject(new Error('Microphone access was denied.')) });
    await expect(t.loop.start()).rejects.toThrow('Microphone access was denied.');
    expect(t.statuses).toEqual(['connecting', 'disconnected']);
  });
});

describe('HandsFreeLoop start-up', () => {
  it('gives up on voice detection that never starts, says so, and stops it if it starts late', async () => {
    let finish!: (h: { destroy(): Promise<void> }) => void;
    const destroy = vi.fn(async () => {});
    const t = setup({ startTimeoutMs: 20, createVad: () => new Promise((resolve) => (finish = resolve)) });
    await expect(t.loop.start()).rejects.toThrow('Voice detection could not start in this browser.');
    expect(t.statuses).toEqual(['connecting', 'disconnected']);
    expect(t.track.stop).toHaveBeenCalled();
    finish({ destroy });
    await flush();
    expect(destroy).toHaveBeenCalled();
  });
});
