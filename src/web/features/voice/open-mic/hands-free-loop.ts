// The product's own open-mic conversation, for personalities without an ElevenLabs agent: voice
// activity detection decides when the person has finished, and the turn is one request (the voice
// turn: speech-to-text, the grounded chat in the same conversation as Text and Self-paced Chat,
// and the reply's speech sentence by sentence, all in one streamed answer). Speaking while the
// personality talks stops its audio at once and cancels the turn upstream (the aborted request
// cancels the model call and the speech being synthesized).
//
// A pause is not always the end of what someone means to say. Going on while the turn is still
// being transcribed withdraws it and its audio becomes the start of the next turn: one question, one
// reply. The server saves nothing of a turn cancelled before its exchange began; a cancel still on
// the wire as the exchange starts can leave its question saved, so the next turn names the turns it
// replaces (`replaces`) and the server removes what they left. Once its words are back, the server
// keeps the question, so it stays a turn of its own. A turn is never longer than the server takes
// (VOICE_MAX_RECORDING_SECONDS): speech that reaches it is sent as a turn, and what follows is the next.
import { ApiError } from '../../../lib/api-client';
import { messages } from '../../../../shared/messages';
import { limits } from '../../../../shared/limits';
import { uuidV4FromBytes } from '../../../../shared/uuid-v4';
import type { SendOptions } from '../../conversation/hooks/use-chat-session';
import { isChatEvent, isSpeechEvent, type TurnAudioEvent } from '../../../../shared/voice-turn-stream';
import type { VoiceTurn } from '../api/voice-turn-api';
import { encodeWav } from '../audio/wav-encoder';
import { accessLost, CallEndedWhileConnecting, type ActiveCall, type CallEvents } from './call-types';
import type { VadFactory, VadHandle } from './silero-vad';
import { VAD_SAMPLE_RATE } from './vad-protocol';

export interface HandsFreeDeps {
  endOfTurnMs: number;
  /** The longest recording the server transcribes (VOICE_MAX_RECORDING_SECONDS): longer speech is cut into turns. */
  maxTurnSeconds: number;
  getStream(): Promise<MediaStream>;
  createVad: VadFactory;
  /** Created in the click that started the call (it is closed when the call ends). */
  audioContext?: AudioContext;
  /** How long voice detection may take to start before the call is given up. */
  startTimeoutMs?: number;
  /**
   * Sends a finished turn; resolves once its transcript is known (the reply follows in the same
   * answer). `ids`: the turn's own id (its question's id when saved) and the withdrawn turns whose
   * audio it carries, which the server removes if a late cancel left them saved.
   */
  startTurn(wav: Uint8Array<ArrayBuffer>, signal: AbortSignal, ids: TurnIds): Promise<VoiceTurn>;
  /** The conversation's send: shows the question and the reply, read from the turn's answer (`stream`). */
  send(text: string, options: SendOptions): Promise<boolean>;
  /** Stops the reply in the conversation (the turn's request is cancelled with it). */
  stopReply(): void;
  player: { speakTurn(replyId: string, speech: TurnAudioEvent): void; endReply(replyId: string): void; stop(): void };
  events: CallEvents;
  /**
   * A turn failed (it is dropped; the call goes on). Not for a refusal of the personality or the
   * session (404, 401, 403: see accessLost): that ends the call (events.onAccessLost).
   */
  onTurnError(message: string, kind: 'warning' | 'error'): void;
  /** Barge-in: from the detected start of speech to the reply falling silent, in ms. */
  onBargeIn?(ms: number): void;
  now?: () => number;
}

/** Loading the model on a slow phone takes seconds; a minute means something is stuck. */
const START_TIMEOUT_MS = 60_000;
/**
 * A withdrawn turn is joined to what follows only with this much room left under the limit:
 * otherwise the joined turn would be cut a moment into the new speech, and the first part is
 * better answered on its own.
 */
const MIN_JOIN_ROOM_SECONDS = 5;
/** The server's bound on `replaces` (shared limits); a longer chain of pauses keeps its latest. */
const MAX_REPLACED_TURNS = limits.voiceTurnReplacesMax;

export interface TurnIds {
  turnId: string;
  replaces: string[];
}

/** Audio said before a pause and withdrawn from the server, with the turns it was sent as. */
interface HeldSpeech {
  audio: Float32Array;
  /** Withdrawn turns (a withdrawn turn may itself have carried earlier ones). */
  turnIds: string[];
}

/** A turn sent to the server, until its reply is over or it is stopped. */
interface SentTurn {
  controller: AbortController;
  audio: Float32Array;
  ids: TurnIds;
  /**
   * Its words are back: the server has started the exchange and keeps the question whatever
   * happens next, and the log shows it. Before that, aborting it leaves nothing behind.
   */
  transcribed: boolean;
  /**
   * Settles once its question is in the conversation (or it ended without one): a later turn is
   * sent after that, so the server saves the questions in the order said and the log shows them so.
   */
  handedOver: Promise<void>;
  /** The turn sent before it, if still in flight then: this one waits for it, then supersedes its reply. */
  earlier: SentTurn | null;
  /** Its request and reply are over (or stopped). */
  done: boolean;
}

/** A version 4 UUID; crypto.randomUUID exists only on secure pages, getRandomValues everywhere. */
function newTurnId(): string {
  return uuidV4FromBytes(crypto.getRandomValues(new Uint8Array(16)));
}

function joinAudio(first: Float32Array, second: Float32Array): Float32Array {
  const joined = new Float32Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

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
  private turn: SentTurn | null = null;
  /** What was said before a pause, withdrawn from the server: the start of the next turn. */
  private held: HeldSpeech | null = null;
  /** Ends the speech under way as a turn when it reaches the limit. */
  private limitTimer: ReturnType<typeof setTimeout> | undefined;
  private speaking = false;
  private turnEndedAt: number | null = null;
  private currentReplyId: string | null = null;
  private ended = false;
  private readonly now: () => number;

  constructor(private readonly deps: HandsFreeDeps) {
    this.now = deps.now ?? (() => performance.now());
  }

  /**
   * Connects: the microphone, then voice detection. end() while this is under way (End Call, or
   * leaving the tab, on "Connecting...") gives the start up: it rejects with
   * CallEndedWhileConnecting, and a microphone or detection that arrives after is released at once.
   */
  async start(): Promise<ActiveCall> {
    const { events } = this.deps;
    events.onStatus('connecting');
    let creating: Promise<VadHandle> | undefined;
    try {
      const stream = await this.deps.getStream();
      this.stream = stream;
      if (this.ended) throw new CallEndedWhileConnecting();
      creating = this.deps.createVad(
        { onSpeechStart: () => this.speechStarted(), onSpeechEnd: (audio, decidedAt) => this.speechEnded(audio, decidedAt), onMisfire: () => this.misfired(), onFailure: () => void this.drop(messages.openMic.vadStopped) },
        { endOfTurnMs: this.deps.endOfTurnMs, stream, audioContext: this.deps.audioContext },
      );
      const vad = await withTimeout(creating, this.deps.startTimeoutMs ?? START_TIMEOUT_MS);
      if (this.ended) throw new CallEndedWhileConnecting();
      this.vad = vad;
    } catch (err) {
      // Gave up waiting, or ended meanwhile: if detection starts after all, it must not keep listening.
      creating?.then((late) => late.destroy()).catch(() => {});
      this.releaseStream();
      void this.deps.audioContext?.close().catch(() => {});
      // Ended meanwhile: the teardown has said so already.
      if (!this.ended) events.onStatus('disconnected');
      this.ended = true;
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
    const untranscribed = this.turn && !this.turn.transcribed ? this.turn : null;
    if (untranscribed && this.roomAfter(untranscribed.audio) >= MIN_JOIN_ROOM_SECONDS) this.withdraw(untranscribed);
    // A reply the person hears, or whose words are on the way: barge-in. (A turn still being
    // transcribed and too long to join goes on: its question is answered, then the next.)
    if (this.speaking || this.turn?.transcribed) this.bargeIn();
    this.armLimit();
  }

  /** The turn's request is cancelled before the server has its words; its audio waits for the rest. */
  private withdraw(turn: SentTurn): void {
    turn.controller.abort();
    // A turn it was waiting behind (cut at the limit, still being transcribed) is the latest again.
    this.turn = turn.earlier && !turn.earlier.done ? turn.earlier : null;
    this.turnEndedAt = null;
    this.held = { audio: turn.audio, turnIds: [turn.ids.turnId, ...turn.ids.replaces].slice(0, MAX_REPLACED_TURNS) };
  }

  /** Silence first, then cancel what is still coming. */
  private bargeIn(): void {
    const at = this.now();
    this.deps.player.stop();
    if (this.turn?.transcribed) {
      this.turn.controller.abort();
      this.turn = null;
    }
    this.deps.stopReply();
    this.turnEndedAt = null;
    this.deps.onBargeIn?.(this.now() - at);
    this.setSpeaking(false);
  }

  /**
   * A newer turn takes over from one whose reply may already be playing (cut at the limit, answered
   * while the person went on): as at barge-in, its audio falls silent first, then its request is
   * cancelled. A sentence of it still arriving would otherwise never end, and the newer reply would
   * wait behind it with the call stuck on "Speaking".
   */
  private supersede(earlier: SentTurn): void {
    this.deps.player.stop();
    earlier.controller.abort();
    this.setSpeaking(false);
  }

  /** Seconds the next speech may add to `audio` before the turn is longer than the server takes. */
  private roomAfter(audio: Float32Array | null): number {
    return this.deps.maxTurnSeconds - (audio?.length ?? 0) / VAD_SAMPLE_RATE;
  }

  /** The speech just begun is cut into a turn when it (with what it joins) reaches the limit. */
  private armLimit(): void {
    clearTimeout(this.limitTimer);
    this.limitTimer = setTimeout(() => this.vad?.endTurn(), Math.max(0, this.roomAfter(this.held?.audio ?? null)) * 1000);
  }

  private speechEnded(audio: Float32Array, decidedAt?: number): void {
    if (this.ended) return;
    clearTimeout(this.limitTimer);
    const held = this.held;
    this.held = null;
    void this.sendTurn(held ? joinAudio(held.audio, audio) : audio, held?.turnIds ?? [], decidedAt);
  }

  /** Not speech after all (a cough): what was withdrawn for it is sent on its own. */
  private misfired(): void {
    if (this.ended) return;
    clearTimeout(this.limitTimer);
    const held = this.held;
    this.held = null;
    if (held) void this.sendTurn(held.audio, held.turnIds);
  }

  /** `replaces`: the withdrawn turns whose audio this one carries. */
  private async sendTurn(audio: Float32Array, replaces: string[], decidedAt?: number): Promise<void> {
    if (this.ended) return;
    const controller = new AbortController();
    let handOver!: () => void;
    const earlier = this.turn;
    const ids: TurnIds = { turnId: newTurnId(), replaces };
    const turn: SentTurn = { controller, audio, ids, transcribed: false, handedOver: new Promise((resolve) => (handOver = resolve)), earlier, done: false };
    this.turn = turn;
    this.turnEndedAt = decidedAt ?? this.now();
    try {
      // One still being transcribed (cut at the limit) goes first: the server saves the questions
      // in the order their exchanges start. Its reply is then superseded by this turn's, as any is.
      if (earlier && !earlier.transcribed) await earlier.handedOver;
      if (earlier && !earlier.done) this.supersede(earlier);
      if (controller.signal.aborted) return;
      const voiceTurn = await this.deps.startTurn(encodeWav(audio, VAD_SAMPLE_RATE), controller.signal, ids);
      turn.transcribed = !controller.signal.aborted;
      await this.answer(voiceTurn, controller, handOver);
    } catch (err) {
      if (controller.signal.aborted || this.ended) return;
      // Silence or a cough: nothing to answer, keep listening.
      if (err instanceof ApiError && err.code === 'NO_SPEECH') return;
      if (err instanceof ApiError && err.code === 'NETWORK') return void this.drop(err.message);
      // The personality went away (deleted, unshared, made private) or the session ended: every
      // later turn would be refused too, so the microphone is released and the call ends.
      if (accessLost(err)) return void this.refused(err);
      this.deps.onTurnError(err instanceof ApiError ? err.message : String(err), 'error');
    } finally {
      turn.done = true;
      turn.earlier = null;
      handOver();
      if (this.turn === turn) this.turn = null;
    }
  }

  /** The transcript into the conversation, the reply's chat events to it and its speech to the player. */
  private async answer(turn: VoiceTurn, controller: AbortController, handedOver: () => void): Promise<void> {
    const text = turn.transcript.text.trim();
    if (controller.signal.aborted || !text) return void controller.abort();
    let replyId: string | null = null;
    const early: TurnAudioEvent[] = [];
    const speak = (speech: TurnAudioEvent) => (replyId ? this.deps.player.speakTurn(replyId, speech) : early.push(speech));
    const sending = this.deps.send(text, {
      pronunciationReport: turn.transcript.pronunciation,
      onReply: ({ id }) => {
        if (replyId || controller.signal.aborted) return;
        replyId = this.currentReplyId = id;
        for (const speech of early.splice(0)) this.deps.player.speakTurn(id, speech);
      },
      stream: (signal, onChatEvent) => {
        // Either side stopping stops both: the conversation's Stop cancels the request and
        // silences what is playing of the reply; a newer turn (or barge-in) cancelling the request
        // stops the reply in the conversation.
        signal.addEventListener(
          'abort',
          () => {
            if (!controller.signal.aborted) this.deps.player.stop();
            controller.abort();
          },
          { once: true },
        );
        controller.signal.addEventListener('abort', () => this.deps.stopReply(), { once: true });
        return turn.read((event) => {
          if (controller.signal.aborted) return;
          if (isSpeechEvent(event)) speak(event);
          else if (isChatEvent(event)) onChatEvent(event);
        });
      },
    });
    // The question is in the log (send shows it before its first await), its reply on the way.
    handedOver();
    const sent = await sending;
    // Not taken (another reply was still streaming): nothing of this turn is read.
    if (!sent) controller.abort();
    if (!controller.signal.aborted && replyId) this.deps.player.endReply(replyId);
  }

  private async drop(message?: string): Promise<void> {
    if (this.ended) return;
    await this.teardown();
    this.deps.events.onDropped(message ?? '');
  }

  private async refused(error: ApiError): Promise<void> {
    if (this.ended) return;
    await this.teardown();
    this.deps.events.onAccessLost(error);
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.deps.events.onStatus('disconnecting');
    await this.teardown();
  }

  private async teardown(): Promise<void> {
    this.ended = true;
    clearTimeout(this.limitTimer);
    this.held = null;
    this.turn?.controller.abort();
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
