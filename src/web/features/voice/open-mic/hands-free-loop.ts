// The product's own open-mic conversation, for personalities without an ElevenLabs agent: voice
// activity detection decides when the person has finished, and the turn is one request (the voice
// turn: speech-to-text, the grounded chat in the same conversation as Text and Self-paced Chat,
// and the reply's speech sentence by sentence, all in one streamed answer). Speaking while the
// personality talks stops its audio at once and cancels the turn upstream (the aborted request
// cancels the model call and the speech being synthesized).
import { ApiError } from '../../../lib/api-client';
import { messages } from '../../../../shared/messages';
import type { SendOptions } from '../../conversation/hooks/use-chat-session';
import { isChatEvent, isSpeechEvent, type TurnAudioEvent } from '../../../../shared/voice-turn-stream';
import type { VoiceTurn } from '../api/voice-turn-api';
import { encodeWav } from '../audio/wav-encoder';
import type { ActiveCall, CallEvents } from './call-types';
import type { VadFactory, VadHandle } from './silero-vad';

export interface HandsFreeDeps {
  endOfTurnMs: number;
  getStream(): Promise<MediaStream>;
  createVad: VadFactory;
  /** Created in the click that started the call (it is closed when the call ends). */
  audioContext?: AudioContext;
  /** How long voice detection may take to start before the call is given up. */
  startTimeoutMs?: number;
  /** Sends a finished turn; resolves once its transcript is known (the reply follows in the same answer). */
  startTurn(wav: Uint8Array<ArrayBuffer>, signal: AbortSignal): Promise<VoiceTurn>;
  /** The conversation's send: shows the question and the reply, read from the turn's answer (`stream`). */
  send(text: string, options: SendOptions): Promise<boolean>;
  /** Stops the reply in the conversation (the turn's request is cancelled with it). */
  stopReply(): void;
  player: { speakTurn(replyId: string, speech: TurnAudioEvent): void; endReply(replyId: string): void; stop(): void };
  events: CallEvents;
  /** A turn failed (it is dropped; the call goes on). */
  onTurnError(message: string, kind: 'warning' | 'error'): void;
  /** Barge-in: from the detected start of speech to the reply falling silent, in ms. */
  onBargeIn?(ms: number): void;
  now?: () => number;
}

/** Loading the model on a slow phone takes seconds; a minute means something is stuck. */
const START_TIMEOUT_MS = 60_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(messages.openMic.vadFailed)), ms);
    work.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

export class HandsFreeLoop {
  private vad: VadHandle | null = null;
  private stream: MediaStream | null = null;
  private turn: AbortController | null = null;
  private speaking = false;
  private turnEndedAt: number | null = null;
  private currentReplyId: string | null = null;
  private ended = false;
  private readonly now: () => number;

  constructor(private readonly deps: HandsFreeDeps) {
    this.now = deps.now ?? (() => performance.now());
  }

  async start(): Promise<ActiveCall> {
    const { events } = this.deps;
    events.onStatus('connecting');
    let creating: Promise<VadHandle> | undefined;
    try {
      this.stream = await this.deps.getStream();
      creating = this.deps.createVad(
        { onSpeechStart: () => this.speechStarted(), onSpeechEnd: (audio, decidedAt) => void this.turnEnded(audio, decidedAt), onMisfire: () => {}, onFailure: () => void this.drop(messages.openMic.vadStopped) },
        { endOfTurnMs: this.deps.endOfTurnMs, stream: this.stream, audioContext: this.deps.audioContext },
      );
      this.vad = await withTimeout(creating, this.deps.startTimeoutMs ?? START_TIMEOUT_MS);
    } catch (err) {
      // Gave up waiting: if it starts after all, it must not keep listening.
      creating?.then((late) => late.destroy()).catch(() => {});
      this.releaseStream();
      void this.deps.audioContext?.close().catch(() => {});
      events.onStatus('disconnected');
      throw err;
    }
    // The microphone going away (unplugged, revoked) is a dropped call.
    for (const track of this.stream.getAudioTracks()) track.addEventListener('ended', () => void this.drop());
    events.onStatus('connected');
    events.onMode('listening');
    return { end: () => this.end(), setVolume: () => {} };
  }

  /** The player started or finished speaking (from useSpeechPlayer). */
  setSpeaking(active: boolean): void {
    if (this.ended || active === this.speaking) return;
    this.speaking = active;
    this.deps.events.onMode(active ? 'speaking' : 'listening');
  }

  /** A sentence of `replyId` became audible. */
  playbackStarted(replyId: string): void {
    if (this.turnEndedAt !== null && replyId === this.currentReplyId) {
      this.deps.events.onResponseTime(this.now() - this.turnEndedAt);
      this.turnEndedAt = null;
    }
  }

  private speechStarted(): void {
    if (this.ended) return;
    if (this.turn || this.speaking) {
      const at = this.now();
      // Barge-in: silence first, then cancel what is still coming.
      this.deps.player.stop();
      this.turn?.abort();
      this.turn = null;
      this.deps.stopReply();
      this.turnEndedAt = null;
      this.deps.onBargeIn?.(this.now() - at);
      this.setSpeaking(false);
    }
  }

  private async turnEnded(audio: Float32Array, decidedAt?: number): Promise<void> {
    if (this.ended) return;
    const controller = new AbortController();
    this.turn?.abort();
    this.turn = controller;
    this.turnEndedAt = decidedAt ?? this.now();
    try {
      const turn = await this.deps.startTurn(encodeWav(audio, 16000), controller.signal);
      const text = turn.transcript.text.trim();
      if (controller.signal.aborted || !text) return void controller.abort();
      let replyId: string | null = null;
      const early: TurnAudioEvent[] = [];
      const speak = (speech: TurnAudioEvent) => (replyId ? this.deps.player.speakTurn(replyId, speech) : early.push(speech));
      const sent = await this.deps.send(text, {
        pronunciationReport: turn.transcript.pronunciation,
        onReply: ({ id }) => {
          if (replyId || controller.signal.aborted) return;
          replyId = this.currentReplyId = id;
          for (const speech of early.splice(0)) this.deps.player.speakTurn(id, speech);
        },
        stream: (signal, onChatEvent) => {
          // Either side stopping stops both: the conversation's Stop cancels the request; a newer
          // turn (or barge-in) cancelling the request stops the reply in the conversation.
          signal.addEventListener('abort', () => controller.abort(), { once: true });
          controller.signal.addEventListener('abort', () => this.deps.stopReply(), { once: true });
          return turn.read((event) => {
            if (controller.signal.aborted) return;
            if (isSpeechEvent(event)) speak(event);
            else if (isChatEvent(event)) onChatEvent(event);
          });
        },
      });
      // Not taken (another reply was still streaming): nothing of this turn is read.
      if (!sent) controller.abort();
      if (!controller.signal.aborted && replyId) this.deps.player.endReply(replyId);
    } catch (err) {
      if (controller.signal.aborted || this.ended) return;
      // Silence or a cough: nothing to answer, keep listening.
      if (err instanceof ApiError && err.code === 'NO_SPEECH') return;
      if (err instanceof ApiError && err.code === 'NETWORK') return void this.drop(err.message);
      this.deps.onTurnError(err instanceof ApiError ? err.message : String(err), 'error');
    } finally {
      if (this.turn === controller) this.turn = null;
    }
  }

  private async drop(message?: string): Promise<void> {
    if (this.ended) return;
    await this.teardown();
    this.deps.events.onDropped(message ?? '');
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.deps.events.onStatus('disconnecting');
    await this.teardown();
  }

  private async teardown(): Promise<void> {
    this.ended = true;
    this.turn?.abort();
    this.turn = null;
    this.deps.player.stop();
    this.deps.stopReply();
    await this.vad?.destroy().catch(() => {});
    this.vad = null;
    await this.deps.audioContext?.close().catch(() => {});
    this.releaseStream();
    this.deps.events.onStatus('disconnected');
  }

  private releaseStream(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
  }
}
