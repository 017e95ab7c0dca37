// The own hands-free loop with a scripted VAD and a scripted voice turn: a finished turn is sent as
// one request, its transcript goes into the conversation, the reply's chat events to the
// conversation and its speech to the player sentence by sentence; the response time runs from the
// VAD's end of turn to the first audible sentence; speaking over the reply stops it and cancels the
// request; silence is not a turn; a lost connection ends the call as dropped.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { messages } from '../../../../shared/messages';
import type { SendOptions } from '../../conversation/hooks/use-chat-session';
import type { ChatStreamEvent } from '../../../../shared/chat-stream';
import type { TurnAudioEvent, TurnSpeechEvent, VoiceTurnEvent } from '../../../../shared/voice-turn-stream';
import type { VoiceTurn } from '../api/voice-turn-api';
import { encodeWav } from '../audio/wav-encoder';
import { CallEndedWhileConnecting, type CallMode, type CallStatus } from './call-types';
import { HandsFreeLoop, type HandsFreeDeps } from './hands-free-loop';
import type { VadCallbacks, VadHandle } from './silero-vad';

const speech = (index: number, text: string): TurnSpeechEvent => ({ type: 'speech', index, text, mime: 'audio/wav', audio: 'UklGRg==', volume: 1, provider: 'openai' });

/** A turn whose answer is these events, read as the server would stream them. */
function scriptedTurn(events: VoiceTurnEvent[], text = 'Tell me a story'): VoiceTurn {
  return {
    transcript: { text, engine: 'openai', approximate: false },
    read: async (onEvent) => {
      for (const e of events) onEvent(e);
    },
  };
}

const STORY: VoiceTurnEvent[] = [
  { type: 'start', conversationId: 'c1', userMessageId: 'u1', mode: 'model', documentReferences: [], documentsProcessing: false },
  { type: 'delta', text: 'Once upon a time. ' },
  speech(0, 'Once upon a time.'),
  { type: 'delta', text: 'There was a sea.' },
  { type: 'done', messageId: 'm1', content: 'Once upon a time. There was a sea.', documentReferences: [] },
  // A streamed sentence: its first bytes, then the rest.
  { ...speech(1, 'There was a sea.'), more: true },
  { type: 'speech-more', index: 1, audio: 'AAAA', more: true },
  { type: 'speech-more', index: 1, audio: '' },
];

/** The conversation's send as useChatSession runs it with a `stream`: chat events become the growing reply. */
function fakeSend(sends: { text: string; options: SendOptions; events: ChatStreamEvent[]; stop?: () => void }[]) {
  return vi.fn(async (text: string, options: SendOptions) => {
    const controller = new AbortController();
    // The conversation's Stop button.
    const record = { text, options, events: [] as ChatStreamEvent[], stop: () => controller.abort() };
    sends.push(record);
    let reply = '';
    try {
      await options.stream?.(controller.signal, (e) => {
        record.events.push(e);
        if (e.type === 'delta') options.onReply?.({ id: 'r1', text: (reply += e.text), final: false });
        if (e.type === 'done') options.onReply?.({ id: 'r1', text: e.content, final: true });
      });
    } catch {
      // A stopped reply.
    }
    return true;
  });
}

function setup(overrides: Partial<HandsFreeDeps> = {}) {
  let vad!: VadCallbacks;
  let clock = 0;
  const statuses: CallStatus[] = [];
  const modes: CallMode[] = [];
  const responseTimes: number[] = [];
  const dropped: string[] = [];
  const refused: ApiError[] = [];
  const spoken: string[] = [];
  const track = new EventTarget() as EventTarget & { stop(): void };
  track.stop = vi.fn();
  const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
  const player = { speakTurn: vi.fn((_id: string, s: TurnAudioEvent) => void spoken.push(s.type === 'speech' ? s.text : `more ${s.index}${s.more ? '' : ' (end)'}`)), endReply: vi.fn(), stop: vi.fn() };
  const sends: { text: string; options: SendOptions; events: ChatStreamEvent[]; stop?: () => void }[] = [];
  const destroy = vi.fn(async () => {});
  const endTurn = vi.fn();
  const deps: HandsFreeDeps = {
    endOfTurnMs: 700,
    maxTurnSeconds: 60,
    getStream: async () => stream,
    createVad: async (callbacks, options) => {
      vad = callbacks;
      expect(options.endOfTurnMs).toBe(700);
      return { endTurn, destroy };
    },
    startTurn: vi.fn(async () => scriptedTurn(STORY)),
    send: fakeSend(sends),
    stopReply: vi.fn(),
    player,
    events: {
      onStatus: (s) => statuses.push(s),
      onMode: (m) => modes.push(m),
      onResponseTime: (ms) => responseTimes.push(ms),
      onDropped: (m) => dropped.push(m),
      onAccessLost: (e) => refused.push(e),
    },
    onTurnError: vi.fn(),
    now: () => clock,
    ...overrides,
  };
  const loop = new HandsFreeLoop(deps);
  return { loop, deps, vad: () => vad, statuses, modes, responseTimes, dropped, refused, spoken, sends, player, track, destroy, endTurn, tick: (ms: number) => (clock += ms) };
}

const speechAudio = new Float32Array(16000).fill(0.1);
const flush = () => new Promise((r) => setTimeout(r, 0));
/** `seconds` of 16 kHz audio at one level. */
const filled = (seconds: number, level: number) => new Float32Array(Math.round(seconds * 16000)).fill(level);
/** The samples a turn's WAV carries (16-bit, after the 44-byte header). */
const samplesOf = (wav: Uint8Array) => Array.from(new Int16Array(wav.buffer.slice(44)));
/** The 16-bit samples `audio` becomes in a WAV. */
const quantized = (audio: Float32Array) => samplesOf(encodeWav(audio, 16000));
/** A request that hangs (transcribing) until it is aborted. */
const untilAborted = <T,>(signal: AbortSignal) => new Promise<T>((_resolve, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

describe('HandsFreeLoop', () => {
  it('connects, sends each finished turn as one request, shows its reply and speaks it sentence by sentence, and times the response', async () => {
    const t = setup();
    await t.loop.start();
    expect(t.statuses).toEqual(['connecting', 'connected']);
    t.vad().onSpeechStart();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    const [wav] = (t.deps.startTurn as ReturnType<typeof vi.fn>).mock.calls[0]!;
    expect(Buffer.from((wav as Uint8Array).subarray(0, 4)).toString('latin1')).toBe('RIFF');
    expect(new DataView((wav as Uint8Array).buffer).getUint32(24, true)).toBe(16000);
    // The transcript is the question in the conversation; the chat's events are its reply.
    expect(t.sends.map((s) => s.text)).toEqual(['Tell me a story']);
    expect(t.sends[0]!.events.map((e) => e.type)).toEqual(['start', 'delta', 'delta', 'done']);
    // The speech events (a streamed sentence's pieces too) go to the player, in order, not to the conversation.
    expect(t.spoken).toEqual(['Once upon a time.', 'There was a sea.', 'more 1', 'more 1 (end)']);
    expect(t.player.speakTurn.mock.calls.map(([id]) => id)).toEqual(['r1', 'r1', 'r1', 'r1']);
    expect(t.player.endReply).toHaveBeenCalledWith('r1');
    t.tick(420);
    t.loop.playbackStarted('r1');
    t.loop.playbackStarted('r1');
    expect(t.responseTimes).toEqual([420]);
  });

  it('times the response from the VAD decision when the VAD says when it decided (its message may have waited)', async () => {
    const t = setup();
    await t.loop.start();
    t.tick(1000);
    t.vad().onSpeechStart();
    // The worker decided 30 ms before the page read its message.
    t.vad().onSpeechEnd(speechAudio, 970);
    await flush();
    t.tick(100);
    t.loop.playbackStarted('r1');
    expect(t.responseTimes).toEqual([130]);
  });

  it('barge-in mid-reply cancels the request and stops the reply; what arrives after is not spoken', async () => {
    let turnSignal: AbortSignal | undefined;
    let late!: (e: VoiceTurnEvent) => void;
    const t = setup({
      startTurn: vi.fn(async (_wav: Uint8Array<ArrayBuffer>, signal: AbortSignal) => {
        turnSignal = signal;
        return {
          transcript: { text: 'Tell me a story', engine: 'openai', approximate: false },
          read: (onEvent: (e: VoiceTurnEvent) => void) =>
            new Promise<void>((_resolve, reject) => {
              for (const e of STORY.slice(0, 3)) onEvent(e);
              late = onEvent;
              signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
            }),
        };
      }),
    });
    await t.loop.start();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    expect(t.spoken).toEqual(['Once upon a time.']);
    t.vad().onSpeechStart();
    expect(turnSignal?.aborted).toBe(true);
    expect(t.player.stop).toHaveBeenCalled();
    expect(t.deps.stopReply).toHaveBeenCalled();
    late(speech(1, 'There was a sea.'));
    await flush();
    expect(t.spoken).toEqual(['Once upon a time.']);
    expect(t.player.endReply).not.toHaveBeenCalled();
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
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

  it('speech that goes on after a pause, while the turn is still being transcribed, joins it: one turn, both parts in order', async () => {
    const signals: AbortSignal[] = [];
    const startTurn = vi
      .fn<HandsFreeDeps['startTurn']>()
      // The first part is still at speech-to-text when the person goes on.
      .mockImplementationOnce((_wav, signal) => (signals.push(signal), untilAborted(signal)))
      .mockImplementation(async (_wav, signal) => (signals.push(signal), scriptedTurn(STORY, 'What did you do yesterday and where did you go after that?')));
    const t = setup({ startTurn });
    await t.loop.start();
    const first = filled(1.5, 0.1);
    const second = filled(2, -0.2);
    t.vad().onSpeechStart();
    t.vad().onSpeechEnd(first);
    await flush();
    t.vad().onSpeechStart();
    await flush();
    // Its request is withdrawn (nothing of it was shown or saved), not answered on its own...
    expect(signals[0]!.aborted).toBe(true);
    expect(t.sends).toEqual([]);
    expect(t.deps.stopReply).not.toHaveBeenCalled();
    t.vad().onSpeechEnd(second);
    await flush();
    // ...and its audio is the start of the one turn sent when the person stops.
    expect(startTurn).toHaveBeenCalledTimes(2);
    expect(samplesOf(startTurn.mock.calls[1]![0])).toEqual([...quantized(first), ...quantized(second)]);
    expect(t.sends.map((x) => x.text)).toEqual(['What did you do yesterday and where did you go after that?']);
    expect(t.spoken[0]).toBe('Once upon a time.');
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
  });

  it('the turn that carries withdrawn audio names the withdrawn turns, so the server can remove what a late cancel left of them', async () => {
    const startTurn = vi
      .fn<HandsFreeDeps['startTurn']>()
      // Two pauses mid-sentence, each withdrawn while its part was being transcribed.
      .mockImplementationOnce((_wav, signal) => untilAborted(signal))
      .mockImplementationOnce((_wav, signal) => untilAborted(signal))
      .mockImplementation(async () => scriptedTurn(STORY));
    const t = setup({ startTurn });
    await t.loop.start();
    for (let part = 0; part < 3; part++) {
      t.vad().onSpeechStart();
      await flush();
      t.vad().onSpeechEnd(filled(1, 0.1));
      await flush();
    }
    expect(startTurn).toHaveBeenCalledTimes(3);
    const [first, second, third] = startTurn.mock.calls.map((call) => call[2]);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const ids of [first, second, third]) expect(ids.turnId).toMatch(uuid);
    expect(new Set([first!.turnId, second!.turnId, third!.turnId]).size).toBe(3);
    expect(first!.replaces).toEqual([]);
    expect(second!.replaces).toEqual([first!.turnId]);
    expect(third!.replaces).toEqual([second!.turnId, first!.turnId]);
    // A turn after an answered one replaces nothing.
    t.vad().onSpeechStart();
    t.vad().onSpeechEnd(filled(1, 0.1));
    await flush();
    expect(startTurn.mock.calls[3]![2].replaces).toEqual([]);
  });

  it('a noise after a withdrawn pause sends it on its own, naming itself as replaced', async () => {
    const startTurn = vi
      .fn<HandsFreeDeps['startTurn']>()
      .mockImplementationOnce((_wav, signal) => untilAborted(signal))
      .mockImplementation(async () => scriptedTurn(STORY));
    const t = setup({ startTurn });
    await t.loop.start();
    t.vad().onSpeechEnd(filled(1.5, 0.1));
    await flush();
    t.vad().onSpeechStart();
    t.vad().onMisfire();
    await flush();
    expect(startTurn.mock.calls[1]![2].replaces).toEqual([startTurn.mock.calls[0]![2].turnId]);
  });

  it("the conversation's Stop during a call silences the reply, not only its text", async () => {
    const startTurn = vi.fn<HandsFreeDeps['startTurn']>().mockImplementation(async (_wav, signal) => ({
      transcript: { text: 'Tell me a story', engine: 'openai', approximate: false },
      read: async (onEvent) => {
        for (const e of STORY.slice(0, 3)) onEvent(e);
        // The rest of the reply is still on its way when Stop is pressed.
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      },
    }));
    const t = setup({ startTurn });
    await t.loop.start();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    expect(t.spoken).toEqual(['Once upon a time.']);
    expect(t.player.stop).not.toHaveBeenCalled();
    t.sends[0]!.stop!();
    await flush();
    expect(startTurn.mock.calls[0]![1].aborted).toBe(true);
    expect(t.player.stop).toHaveBeenCalled();
  });

  it('a noise after the pause (no speech) sends what was said before it on its own', async () => {
    const startTurn = vi
      .fn<HandsFreeDeps['startTurn']>()
      .mockImplementationOnce((_wav, signal) => untilAborted(signal))
      .mockImplementation(async () => scriptedTurn(STORY));
    const t = setup({ startTurn });
    await t.loop.start();
    const said = filled(1.5, 0.1);
    t.vad().onSpeechEnd(said);
    await flush();
    t.vad().onSpeechStart();
    t.vad().onMisfire();
    await flush();
    expect(startTurn).toHaveBeenCalledTimes(2);
    expect(samplesOf(startTurn.mock.calls[1]![0])).toEqual(quantized(said));
    expect(t.sends).toHaveLength(1);
  });

  it('once the reply is audible, speech is barge-in: the reply stops and the next turn is only the new speech', async () => {
    let firstSignal: AbortSignal | undefined;
    const startTurn = vi
      .fn<HandsFreeDeps['startTurn']>()
      .mockImplementationOnce(async (_wav, signal) => {
        firstSignal = signal;
        return { transcript: { text: 'Tell me a story', engine: 'openai', approximate: false }, read: (onEvent) => (STORY.slice(0, 3).forEach(onEvent), untilAborted(signal)) };
      })
      .mockImplementation(async () => scriptedTurn(STORY, 'Stop, tell me another'));
    const t = setup({ startTurn });
    await t.loop.start();
    t.vad().onSpeechEnd(filled(1.5, 0.1));
    await flush();
    t.loop.setSpeaking(true);
    t.loop.playbackStarted('r1');
    t.vad().onSpeechStart();
    expect(firstSignal?.aborted).toBe(true);
    expect(t.player.stop).toHaveBeenCalled();
    expect(t.deps.stopReply).toHaveBeenCalled();
    const interruption = filled(1, -0.2);
    t.vad().onSpeechEnd(interruption);
    await flush();
    expect(samplesOf(startTurn.mock.calls[1]![0])).toEqual(quantized(interruption));
    expect(t.sends.map((x) => x.text)).toEqual(['Tell me a story', 'Stop, tell me another']);
  });

  it('a turn with no speech in it is dropped quietly; other failures are reported and the call goes on', async () => {
    const startTurn = vi.fn().mockRejectedValueOnce(new ApiError(422, 'NO_SPEECH', 'No speech detected - try speaking louder')).mockRejectedValueOnce(new ApiError(502, 'STT_ERROR', 'Speech-to-text error: boom'));
    const t = setup({ startTurn });
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
    const t = setup({ startTurn: vi.fn().mockRejectedValue(new ApiError(0, 'NETWORK', 'Failed to process recorded audio')) });
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

  it.each([
    [404, 'NOT_FOUND', 'Personality not found'],
    [401, 'UNAUTHENTICATED', 'Authentication required'],
    [403, 'FORBIDDEN', 'You do not have permission to do that'],
  ])('a turn refused with %i (the personality went away, or the session ended) ends the call: the microphone is released, nothing more is sent', async (status, code, message) => {
    const startTurn = vi.fn().mockRejectedValue(new ApiError(status, code, message));
    const t = setup({ startTurn });
    await t.loop.start();
    t.vad().onSpeechStart();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    await flush();
    // Not a turn's error to toast while the call goes on: the call is over, and says why.
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
    expect(t.refused.map((e) => [e.status, e.message])).toEqual([[status, message]]);
    expect(t.dropped).toEqual([]);
    expect(t.track.stop).toHaveBeenCalled();
    expect(t.destroy).toHaveBeenCalled();
    expect(t.statuses.at(-1)).toBe('disconnected');
    // Whatever the detection still reports is not sent (it would be refused again).
    t.vad().onSpeechStart();
    t.vad().onSpeechEnd(speechAudio);
    await flush();
    expect(startTurn).toHaveBeenCalledTimes(1);
    expect(t.refused).toHaveLength(1);
  });

  it('voice detection failing mid-call ends the call as dropped, saying why', async () => {
    const t = setup();
    await t.loop.start();
    t.vad().onFailure();
    await flush();
    expect(t.dropped).toEqual([messages.openMic.vadStopped]);
    expect(t.destroy).toHaveBeenCalled();
    expect(t.track.stop).toHaveBeenCalled();
    expect(t.statuses.at(-1)).toBe('disconnected');
  });

  it('a microphone that cannot be opened leaves the call disconnected and says why', async () => {
    const t = setup({ getStream: async () => Promise.reject(new Error('Microphone access was denied.')) });
    await expect(t.loop.start()).rejects.toThrow('Microphone access was denied.');
    expect(t.statuses).toEqual(['connecting', 'disconnected']);
  });
});

describe('HandsFreeLoop start-up', () => {
  it('gives up on voice detection that never starts, says so, and stops it if it starts late', async () => {
    let finish!: (h: VadHandle) => void;
    const destroy = vi.fn(async () => {});
    const t = setup({ startTimeoutMs: 20, createVad: () => new Promise((resolve) => (finish = resolve)) });
    await expect(t.loop.start()).rejects.toThrow('Voice detection could not start in this browser.');
    expect(t.statuses).toEqual(['connecting', 'disconnected']);
    expect(t.track.stop).toHaveBeenCalled();
    finish({ endTurn: vi.fn(), destroy });
    await flush();
    expect(destroy).toHaveBeenCalled();
  });
});

describe('HandsFreeLoop ended while it is connecting', () => {
  /** A microphone whose stream the test hands out (the person still reading the browser's prompt). */
  function slowMicrophone() {
    const track = Object.assign(new EventTarget(), { stop: vi.fn() });
    const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
    let open!: () => void;
    const getStream = () => new Promise<MediaStream>((resolve) => (open = () => resolve(stream)));
    return { track, getStream, open: () => open() };
  }

  it('End while the microphone is opening: the start is given up, the microphone released as it opens, nothing listens', async () => {
    const mic = slowMicrophone();
    const createVad = vi.fn<HandsFreeDeps['createVad']>();
    const t = setup({ getStream: mic.getStream, createVad });
    const starting = t.loop.start();
    starting.catch(() => {});
    await flush();
    await t.loop.end();
    expect(t.statuses.at(-1)).toBe('disconnected');
    mic.open();
    await expect(starting).rejects.toBeInstanceOf(CallEndedWhileConnecting);
    expect(mic.track.stop).toHaveBeenCalled();
    expect(createVad).not.toHaveBeenCalled();
    expect(t.statuses).not.toContain('connected');
    expect(t.statuses.at(-1)).toBe('disconnected');
  });

  it('End while voice detection is starting: the microphone is released at once, and detection stopped when it starts', async () => {
    let finish!: (h: VadHandle) => void;
    const t = setup({ createVad: () => new Promise((resolve) => (finish = resolve)) });
    const starting = t.loop.start();
    starting.catch(() => {});
    await flush();
    await t.loop.end();
    expect(t.track.stop).toHaveBeenCalled();
    const destroy = vi.fn(async () => {});
    finish({ endTurn: vi.fn(), destroy });
    await expect(starting).rejects.toBeInstanceOf(CallEndedWhileConnecting);
    expect(destroy).toHaveBeenCalled();
    expect(t.statuses).not.toContain('connected');
    expect(t.statuses.at(-1)).toBe('disconnected');
  });
});

describe('HandsFreeLoop: the longest turn the server takes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** The voice turn as the server answers it: over VOICE_MAX_RECORDING_SECONDS + 5 is refused. */
  const server = () =>
    vi.fn<HandsFreeDeps['startTurn']>(async (wav) => {
      const seconds = (wav.length - 44) / 32000;
      if (seconds > 60 + 5) throw new ApiError(400, 'BAD_AUDIO', 'The recording is longer than 60 seconds.');
      return scriptedTurn(STORY, `${Math.round(seconds)} s of speech`);
    });

  /** A person talking, as the VAD worker reports it: endTurn cuts the speech so far into a turn, and speech that goes on starts again. */
  function person(t: ReturnType<typeof setup>) {
    let since = 0;
    const pause = () => {
      const audio = filled((Date.now() - since) / 1000, 0.1);
      since = Date.now();
      t.vad().onSpeechEnd(audio);
    };
    t.endTurn.mockImplementation(() =>
      queueMicrotask(() => {
        pause();
        t.vad().onSpeechStart();
      }),
    );
    return {
      speak: () => {
        since = Date.now();
        t.vad().onSpeechStart();
      },
      pause,
    };
  }
  const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

  it('75 s without a pause: a turn is sent at 60 s and the rest is the next turn; nothing is refused or lost', async () => {
    const startTurn = server();
    const t = setup({ startTurn });
    await t.loop.start();
    const someone = person(t);
    someone.speak();
    await wait(59_000);
    expect(startTurn).not.toHaveBeenCalled();
    await wait(1_000);
    expect(t.endTurn).toHaveBeenCalledTimes(1);
    expect(t.sends.map((x) => x.text)).toEqual(['60 s of speech']);
    await wait(15_000);
    someone.pause();
    await wait(0);
    expect(t.sends.map((x) => x.text)).toEqual(['60 s of speech', '15 s of speech']);
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
    // The second part had 60 s of its own before it would have been cut.
    expect(t.endTurn).toHaveBeenCalledTimes(1);
  });

  /** A turn sender whose long turns (over 30 s) take 10 s to transcribe and short ones no time; each says how long it was. */
  const slowLongTurns = () =>
    vi.fn<HandsFreeDeps['startTurn']>(async (wav, signal) => {
      const seconds = (wav.length - 44) / 32000;
      if (seconds > 30) await new Promise((r) => setTimeout(r, 10_000));
      if (signal.aborted) throw new DOMException('aborted', 'AbortError');
      return scriptedTurn(STORY, `${Math.round(seconds)} s of speech`);
    });

  it('a turn cut at the limit is not withdrawn by the speech that goes on; the next turn waits for its words', async () => {
    const startTurn = slowLongTurns();
    const t = setup({ startTurn });
    await t.loop.start();
    const someone = person(t);
    someone.speak();
    await wait(60_000);
    expect(startTurn).toHaveBeenCalledTimes(1);
    const [, cutSignal] = startTurn.mock.calls[0]!;
    await wait(3_000);
    someone.pause();
    await wait(0);
    expect(cutSignal.aborted).toBe(false);
    // Sent after the first turn's words are in, so the server saves the two in the order said.
    expect(startTurn).toHaveBeenCalledTimes(1);
    await wait(7_000);
    expect(startTurn).toHaveBeenCalledTimes(2);
    expect(t.sends.map((x) => x.text)).toEqual(['60 s of speech', '3 s of speech']);
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
  });

  it('behind a cut turn still being transcribed, a pause and more speech still join, and go after it', async () => {
    const startTurn = slowLongTurns();
    const t = setup({ startTurn });
    await t.loop.start();
    const someone = person(t);
    someone.speak();
    await wait(62_000);
    someone.pause();
    await wait(1_000);
    someone.speak();
    await wait(1_000);
    someone.pause();
    await wait(0);
    // Only the cut turn has gone; the 2 s and the 1 s after a pause are one turn, sent after it.
    expect(startTurn).toHaveBeenCalledTimes(1);
    await wait(10_000);
    expect(t.sends.map((x) => x.text)).toEqual(['60 s of speech', '3 s of speech']);
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
  });

  it('speech joined to a withdrawn turn is cut where the two together reach the limit', async () => {
    const startTurn = server();
    // The first part is still being transcribed when the person goes on.
    startTurn.mockImplementationOnce((_wav, signal) => untilAborted(signal));
    const t = setup({ startTurn });
    await t.loop.start();
    const someone = person(t);
    someone.speak();
    await wait(40_000);
    someone.pause();
    await wait(1_000);
    someone.speak();
    await wait(19_000);
    expect(t.endTurn).not.toHaveBeenCalled();
    await wait(1_000);
    expect(t.endTurn).toHaveBeenCalledTimes(1);
    expect(t.sends.map((x) => x.text)).toEqual(['60 s of speech']);
    await wait(5_000);
    someone.pause();
    await wait(0);
    expect(t.sends.map((x) => x.text)).toEqual(['60 s of speech', '5 s of speech']);
    expect(t.deps.onTurnError).not.toHaveBeenCalled();
  });
});
