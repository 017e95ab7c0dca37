// The hands-free loop with the real speech player (audio elements stubbed: each sentence "plays"
// for 20 ms): a reply whose sentence was still arriving when its turn was superseded, or when its
// connection broke, must not leave the call on "Speaking" with nothing heard, nor hold the next
// reply back.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { SendOptions } from '../../conversation/hooks/use-chat-session';
import type { TurnSpeechEvent, VoiceTurnEvent } from '../../../../shared/voice-turn-stream';
import type { VoiceTurn } from '../api/voice-turn-api';
import { encodeWav } from '../audio/wav-encoder';
import { SpeechPlayer } from '../speech/speech-player';
import { HandsFreeLoop, type HandsFreeDeps } from './hands-free-loop';
import type { VadCallbacks } from './silero-vad';

const filled = (seconds: number, level: number) => new Float32Array(Math.round(seconds * 16000)).fill(level);
const flush = () => new Promise((r) => setTimeout(r, 0));
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
/** A sentence's whole WAV (0.05 s). */
const wholeSpeech = (index: number, text: string): TurnSpeechEvent => ({ type: 'speech', index, text, mime: 'audio/wav', audio: b64(encodeWav(new Float32Array(800), 16000)), volume: 1, provider: 'openai' });
/** A streamed sentence's first bytes: the header and a few samples; the rest (`speech-more`) is still to come. */
const streamedHead = (index: number, text: string): TurnSpeechEvent => ({ ...wholeSpeech(index, text), audio: b64(encodeWav(new Float32Array(800), 16000).subarray(0, 44 + 200)), more: true });
const started: VoiceTurnEvent = { type: 'start', conversationId: null, userMessageId: null, mode: 'model', documentReferences: [], documentsProcessing: false };
/** A whole reply of one sentence. */
const reply = (text: string): VoiceTurnEvent[] => [started, { type: 'delta', text }, wholeSpeech(0, text), { type: 'done', messageId: null, content: text, documentReferences: [] }];

/** A session like useChatSession: one reply at a time, Stop aborts the current one, reply ids unique. */
function fakeSession() {
  let current: AbortController | null = null;
  let n = 0;
  const sent: string[] = [];
  const send = vi.fn(async (text: string, options: SendOptions) => {
    if (current && !current.signal.aborted) return false;
    const controller = new AbortController();
    current = controller;
    const replyId = `reply-${++n}`;
    sent.push(text);
    let growing = '';
    try {
      await options.stream?.(controller.signal, (e) => {
        if (e.type === 'delta') options.onReply?.({ id: replyId, text: (growing += e.text), final: false });
        if (e.type === 'done') options.onReply?.({ id: replyId, text: e.content, final: true });
      });
    } catch {
      // Stopped, or the connection broke.
    } finally {
      if (current === controller) current = null;
    }
    return true;
  });
  return { send, stopReply: vi.fn(() => current?.abort()), sent };
}

/** A voice turn whose events the test hands out; its answer ends when `end` is called, or rejects when aborted. */
function controlledTurn(text: string, signal: AbortSignal) {
  let emit: ((e: VoiceTurnEvent) => void) | undefined;
  const queued: VoiceTurnEvent[] = [];
  let finish!: () => void;
  const ended = new Promise<void>((r) => (finish = r));
  const turn: VoiceTurn = {
    transcript: { text, engine: 'openai', approximate: false },
    read: (onEvent) => {
      emit = onEvent;
      for (const e of queued.splice(0)) onEvent(e);
      return new Promise<void>((resolve, reject) => {
        void ended.then(resolve);
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    },
  };
  return { turn, push: (e: VoiceTurnEvent) => (emit ? emit(e) : queued.push(e)), end: () => finish() };
}

const heard: string[] = [];
beforeEach(() => {
  heard.length = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/clip');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    setTimeout(() => this.dispatchEvent(new Event('playing')), 1);
    setTimeout(() => this.dispatchEvent(new Event('ended')), 20);
    return Promise.resolve();
  });
});
afterEach(() => vi.restoreAllMocks());

/** A call: the loop, the real player wired to it as useOpenMic wires them, a scripted VAD. */
function call(startTurn: HandsFreeDeps['startTurn']) {
  const session = fakeSession();
  let vad!: VadCallbacks;
  const modes: string[] = [];
  const track = Object.assign(new EventTarget(), { stop: vi.fn() });
  const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
  let loop: HandsFreeLoop | null = null;
  const player = new SpeechPlayer({
    personalityId: 'p',
    keepForReplay: false,
    level: () => ({ volume: 1, muted: false }),
    onActiveChange: (active) => loop?.setSpeaking(active),
    onAutoplayBlocked: () => {},
    onError: () => {},
    onPlaybackStart: (id) => {
      if (heard.at(-1) !== id) heard.push(id);
      loop?.playbackStarted(id);
    },
  });
  loop = new HandsFreeLoop({
    endOfTurnMs: 700,
    maxTurnSeconds: 60,
    getStream: async () => stream,
    createVad: async (callbacks) => ((vad = callbacks), { endTurn: vi.fn(), destroy: vi.fn(async () => {}) }),
    startTurn,
    send: session.send,
    stopReply: session.stopReply,
    player,
    events: { onStatus: () => {}, onMode: (m) => modes.push(m), onResponseTime: () => {}, onDropped: () => {}, onAccessLost: () => {} },
    onTurnError: () => {},
  });
  return { loop, vad: () => vad, modes, session };
}

it("a cut turn's reply, superseded mid-sentence by the next turn, is silenced; the next turn's reply is heard", async () => {
  let answerA!: () => void;
  let a!: ReturnType<typeof controlledTurn>;
  let aSignal!: AbortSignal;
  const startTurn = vi
    .fn<HandsFreeDeps['startTurn']>()
    .mockImplementationOnce((_wav, signal) => {
      aSignal = signal;
      a = controlledTurn('first sixty seconds', signal);
      return new Promise((resolve) => (answerA = () => resolve(a.turn)));
    })
    .mockImplementationOnce(async (_wav, signal) => {
      const b = controlledTurn('the last three seconds', signal);
      for (const e of reply('Answer to B.')) b.push(e);
      setTimeout(b.end, 5);
      return b.turn;
    });
  const t = call(startTurn);
  await t.loop.start();
  // A minute without a pause: the VAD cuts it, and the speech goes on at once.
  t.vad().onSpeechStart();
  t.vad().onSpeechEnd(filled(60, 0.1));
  t.vad().onSpeechStart();
  await flush();
  // The cut turn's words come back while the person is still speaking; its reply starts to stream.
  answerA();
  await flush();
  a.push(started);
  a.push({ type: 'delta', text: 'Answer to A, first sentence. ' });
  a.push(streamedHead(0, 'Answer to A, first sentence.'));
  await flush();
  expect(t.modes.at(-1)).toBe('speaking');
  // The person stops: the rest is the next turn, which supersedes the first one's reply.
  t.vad().onSpeechEnd(filled(3, 0.2));
  await wait(300);
  expect(aSignal.aborted).toBe(true);
  expect(t.session.sent).toEqual(['first sixty seconds', 'the last three seconds']);
  // Nothing more of the superseded reply is heard: the next turn's reply is.
  expect(heard).toEqual(['reply-2']);
  expect(t.modes.at(-1)).toBe('listening');
});

it('a reply whose connection broke mid-sentence: the call goes back to listening, and the next reply is heard', async () => {
  const startTurn = vi
    .fn<HandsFreeDeps['startTurn']>()
    .mockImplementationOnce(async () => ({
      transcript: { text: 'first', engine: 'openai', approximate: false },
      read: async (onEvent) => {
        onEvent(started);
        onEvent({ type: 'delta', text: 'A sentence.' });
        onEvent(streamedHead(0, 'A sentence.'));
        await wait(10);
        throw new TypeError('network error');
      },
    }))
    .mockImplementationOnce(async (_wav, signal) => {
      const b = controlledTurn('second', signal);
      for (const e of reply('Answer to the second.')) b.push(e);
      setTimeout(b.end, 5);
      return b.turn;
    });
  const t = call(startTurn);
  await t.loop.start();
  t.vad().onSpeechStart();
  t.vad().onSpeechEnd(filled(2, 0.1));
  await wait(300);
  expect(t.modes.at(-1)).toBe('listening');
  t.vad().onSpeechStart();
  t.vad().onSpeechEnd(filled(2, 0.1));
  await wait(300);
  expect(t.session.sent).toEqual(['first', 'second']);
  expect(heard).toEqual(['reply-1', 'reply-2']);
  expect(t.modes.at(-1)).toBe('listening');
});
