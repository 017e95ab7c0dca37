// Speaks replies sentence by sentence, in order. Audio for the next sentences is fetched while
// the current one plays (a few ahead, not the whole reply: a stopped reply spends little), so
// the first sentence is heard as soon as it exists and the rest follow without gaps. Self-paced
// Chat's player keeps each spoken reply's audio (Blobs, not decoded) so Replay plays it again; an
// open-mic call's keeps nothing (no Replay there, and a long call would hold every sentence). An
// object URL lives only while its sentence plays. Failures follow the spec: an OpenAI
// or embedded voice failure is spoken by the browser (rate 0.9, pitch 1), whether the provider
// refused at once or its audio broke off on the way; an ElevenLabs failure, a spent daily limit or
// a rate limit is a message (the server's) and the rest of that reply stays silent.
import { ApiError } from '../../../lib/api-client';
import { messages } from '../../../../shared/messages';
import { playbackVolume, voiceVolumeMultiplier } from '../../../../shared/voice-volume';
import { BrokenSpeech, synthesize } from '../api/voice-api';
import { playChime, type Chime } from '../audio/chime';
import { encodeWav } from '../audio/wav-encoder';
import { wavToAudioBuffer } from '../audio/wav-samples';
import { ArrivingWav } from '../audio/arriving-wav';
import { BROWSER_VOICE_CODES, type TurnAudioEvent, type TurnSpeechEvent } from '../../../../shared/voice-turn-stream';

type AudioClip = { kind: 'audio'; blob: Blob; multiplier: number; decoded?: Promise<AudioBuffer | null> };

export type Clip =
  | AudioClip
  /** An open-mic sentence still streaming in: played as its samples arrive. */
  | { kind: 'stream'; audio: ArrivingWav; mime: string; multiplier: number }
  | { kind: 'browser'; text: string }
  | { kind: 'silent' };

interface QueueItem {
  replyId: string;
  kind: 'sentence' | 'chime';
  text: string;
  clip?: Promise<Clip>;
}

export interface SpeechPlayerOptions {
  personalityId: string;
  /** Keep what was spoken for replay() without new synthesis (default true); false for an open-mic call. */
  keepForReplay?: boolean;
  /** The listener's current volume and mute (read at each sentence and on every change). */
  level(): { volume: number; muted: boolean };
  /** True while anything is queued or playing. */
  onActiveChange(active: boolean): void;
  /** The browser refused to play without a gesture: show "Tap the Play button" until resume(). */
  onAutoplayBlocked(blocked: boolean): void;
  onError(message: string): void;
  /** A sentence became audible (open mic measures its response time from the end of speech to here). */
  onPlaybackStart?(replyId: string): void;
}

const PREFETCH = 3;

/** Base64 to bytes: natively where the browser can (Chromium 140+, Firefox 133+), else through atob. */
function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  if (native) return native(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
const BROWSER_RATE = 0.9;
const BROWSER_PITCH = 1;

/** The voices whose failure the browser's voice stands in for (the server's TTS_FALLBACK / TTS_BROWSER). */
const BROWSER_STANDS_IN_FOR = new Set(['openai', 'embedded', 'festival']);

export class SpeechPlayer {
  private queue: QueueItem[] = [];
  private running = false;
  /** Bumped by stop(): a loop or fetch from before it ends quietly. */
  private generation = 0;
  private fetches = new AbortController();
  private current: HTMLAudioElement | null = null;
  /** During an open-mic call: the call's running AudioContext, and the sentence playing through it. */
  private context: AudioContext | null = null;
  /** The sentence playing through the call's context: its pieces (a streamed sentence has several) and their volume. */
  private source: { nodes: AudioBufferSourceNode[]; gain: GainNode; cancel(): void } | null = null;
  /** Open-mic sentences whose audio is still arriving, by reply and sentence index. */
  private arriving = new Map<string, { replyId: string; audio: ArrivingWav }>();
  private chime: Chime | null = null;
  private currentMultiplier = 1;
  private unblock: (() => void) | null = null;
  private failedReplies = new Set<string>();
  /** Replies of which something was heard, until their chime (a reply that failed part-way still gets one). */
  private heard = new Set<string>();
  /** What was spoken, by reply, for replay (only when keepForReplay). */
  private spoken = new Map<string, Clip[]>();

  constructor(private readonly options: SpeechPlayerOptions) {}

  /** Queues one sentence of a reply (fetching starts at once when it is near the front). */
  speak(replyId: string, sentence: string) {
    if (this.failedReplies.has(replyId)) return;
    this.queue.push({ replyId, kind: 'sentence', text: sentence });
    this.prefetch();
    void this.run();
  }

  /**
   * One sentence of an open-mic turn, its speech in the turn's answer (no fetch of its own):
   * decoded at once when a call's context runs, played in arrival order. A streamed sentence
   * (`more`, then `speech-more` events) starts playing with its first bytes. Failures follow the
   * same rules as fetched sentences (the browser's voice, or one message and silence).
   */
  speakTurn(replyId: string, speech: TurnAudioEvent) {
    const key = `${replyId}#${speech.index}`;
    if (speech.type === 'speech-more') {
      const audio = this.arriving.get(key)?.audio;
      if (!audio) return; // stopped meanwhile
      if (speech.audio) audio.push(fromBase64(speech.audio));
      if (!speech.more) {
        audio.end();
        this.arriving.delete(key);
      }
      return;
    }
    // A call's replies stream one at a time: once a newer one speaks, an older one's sentence still
    // arriving never will (its turn was superseded or broke off), and waiting for it would hold
    // every later reply back. What arrived of it plays.
    this.endArriving((id) => id !== replyId);
    if (this.failedReplies.has(replyId)) return;
    let clip: Clip;
    if (!('error' in speech) && speech.more) {
      const audio = new ArrivingWav();
      audio.push(fromBase64(speech.audio));
      this.arriving.set(key, { replyId, audio });
      clip = { kind: 'stream', audio, mime: speech.mime, multiplier: speech.volume };
    } else clip = this.turnClip(replyId, speech);
    this.queue.push({ replyId, kind: 'sentence', text: speech.text, clip: Promise.resolve(clip) });
    void this.run();
  }

  /**
   * The reply is complete: a chime follows its last sentence. A sentence of it still arriving gets
   * no more (the answer broke off mid-sentence): what arrived plays, then the next.
   */
  endReply(replyId: string) {
    this.endArriving((id) => id === replyId);
    if (!this.queue.some((i) => i.replyId === replyId) && !this.running) return;
    this.queue.push({ replyId, kind: 'chime', text: '' });
    void this.run();
  }

  /** Plays a reply again: what was spoken (no new synthesis), else its sentences afresh. */
  replay(replyId: string, sentences: string[]) {
    this.stop();
    const clips = this.spoken.get(replyId);
    const key = `${replyId}#replay-${Date.now()}`;
    if (clips?.length) {
      for (const clip of clips) this.queue.push({ replyId: key, kind: 'sentence', text: '', clip: Promise.resolve(clip) });
    } else {
      for (const s of sentences) this.queue.push({ replyId, kind: 'sentence', text: s });
    }
    this.queue.push({ replyId: key, kind: 'chime', text: '' });
    this.prefetch();
    void this.run();
  }

  /**
   * An open-mic call's AudioContext (already running, started in the Start click): sentences are
   * decoded as they arrive and played through it, which starts sooner than a new <audio> element
   * and stops at once on barge-in. Null (or a context no longer running) plays <audio> again.
   */
  setCallContext(context: AudioContext | null) {
    this.context = context;
    // The first decodeAudioData in a context is slow (the decoder starts): paid at call start
    // with a few silent samples, not by the first reply.
    if (context) void context.decodeAudioData(encodeWav(new Float32Array(160), 16000).buffer).catch(() => undefined);
  }

  /** Silences everything now and forgets the queue (a new recording, leaving the tab). */
  stop() {
    this.generation += 1;
    this.fetches.abort();
    this.fetches = new AbortController();
    this.queue = [];
    this.heard.clear();
    this.endArriving(() => true);
    if (this.current) {
      this.current.pause();
      this.current = null;
    }
    this.stopSource();
    this.chime?.stop();
    this.chime = null;
    if (typeof speechSynthesis !== 'undefined') speechSynthesis.cancel();
    this.setBlocked(null);
    if (this.running) {
      this.running = false;
      this.options.onActiveChange(false);
    }
  }

  /** The Play button after autoplay was blocked: runs in the tap's gesture. */
  resume() {
    this.unblock?.();
  }

  /** The slider or mute moved: the sentence playing now follows at once. */
  levelChanged() {
    if (this.current) this.current.volume = this.volumeFor(this.currentMultiplier);
    if (this.source) this.source.gain.gain.value = this.volumeFor(this.currentMultiplier);
  }

  /** Stops, and lets go of everything kept for replay. */
  dispose() {
    this.stop();
    this.spoken.clear();
  }

  /** Ends the sentences still arriving of the replies `which` picks: no more of their audio will come. */
  private endArriving(which: (replyId: string) => boolean) {
    for (const [key, { replyId, audio }] of this.arriving) {
      if (!which(replyId)) continue;
      audio.end();
      this.arriving.delete(key);
    }
  }

  private volumeFor(multiplier: number) {
    const { volume, muted } = this.options.level();
    return playbackVolume(volume, muted, multiplier);
  }

  private prefetch() {
    let ahead = 0;
    for (const item of this.queue) {
      if (item.kind !== 'sentence') continue;
      if (!item.clip) item.clip = this.fetchClip(item);
      if (++ahead >= PREFETCH) break;
    }
  }

  private async fetchClip(item: QueueItem): Promise<Clip> {
    const generation = this.generation;
    try {
      const audio = await synthesize(this.options.personalityId, item.text, this.fetches.signal);
      // Decoded while the sentences before it play: the call's player starts it without waiting.
      const decoded = this.runningContext() ? this.decode(audio.blob) : undefined;
      return { kind: 'audio', blob: audio.blob, multiplier: audio.multiplier, decoded };
    } catch (err) {
      if (generation !== this.generation) return { kind: 'silent' };
      if (err instanceof ApiError) return this.failedClip(item.replyId, item.text, err);
      // Audio that broke off on the way: for an OpenAI (or the server's own) voice the browser
      // speaks the sentence, as when the provider refuses at once; an ElevenLabs voice failed.
      if (err instanceof BrokenSpeech && BROWSER_STANDS_IN_FOR.has(err.provider)) return { kind: 'browser', text: item.text };
      if (err instanceof BrokenSpeech && err.provider === 'elevenlabs') return this.failedClip(item.replyId, item.text, { code: 'TTS_ERROR', message: messages.voice.ttsError });
      return this.failedClip(item.replyId, item.text, { code: 'UNKNOWN', message: messages.voice.playbackFailed });
    }
  }

  /**
   * A sentence whose speech failed: the browser's own voice for the fallback codes; otherwise one
   * message per reply, then the rest of it stays silent (it is still in the log).
   */
  private failedClip(replyId: string, text: string, error: { code: string; message: string }): Clip {
    if (BROWSER_VOICE_CODES.has(error.code)) return { kind: 'browser', text };
    if (!this.failedReplies.has(replyId)) {
      this.failedReplies.add(replyId);
      this.options.onError(error.message);
    }
    return { kind: 'silent' };
  }

  private turnClip(replyId: string, speech: TurnSpeechEvent): Clip {
    if ('error' in speech) return this.failedClip(replyId, speech.text, speech.error);
    return this.bytesClip(fromBase64(speech.audio), speech.mime, speech.volume);
  }

  /** A whole sentence's audio, decoded at once when a call's context runs. */
  private bytesClip(bytes: Uint8Array<ArrayBuffer>, mime: string, multiplier: number): AudioClip {
    const blob = new Blob([bytes], { type: mime });
    const context = this.runningContext();
    // WAV is copied into a buffer at once; anything else is decoded (the blob keeps its own copy of the bytes).
    const samples = context ? wavToAudioBuffer(context, bytes) : null;
    const decoded = samples ? Promise.resolve(samples) : context ? context.decodeAudioData(bytes.buffer).catch(() => null) : undefined;
    return { kind: 'audio', blob, multiplier, decoded };
  }

  /**
   * A sentence that played, kept for replay: its audio as a Blob only (a decoded AudioBuffer is
   * several times larger, and replay decodes again if it needs to); a streamed one as one file.
   */
  private keepForReplay(replyId: string, clip: Clip) {
    if (this.options.keepForReplay === false) return;
    const kept: Clip =
      clip.kind === 'stream'
        ? { kind: 'audio', blob: new Blob([clip.audio.bytes()], { type: clip.mime }), multiplier: clip.multiplier }
        : clip.kind === 'audio'
          ? { kind: 'audio', blob: clip.blob, multiplier: clip.multiplier }
          : clip;
    this.spoken.set(replyId, [...(this.spoken.get(replyId) ?? []), kept]);
  }

  private async run() {
    if (this.running) return;
    this.running = true;
    const generation = this.generation;
    this.options.onActiveChange(true);
    while (generation === this.generation && this.queue.length > 0) {
      const item = this.queue[0]!;
      if (item.kind === 'chime') {
        const { volume, muted } = this.options.level();
        // Only after something was heard of this reply.
        if (!this.failedReplies.has(item.replyId) || this.heard.has(item.replyId)) {
          const chime = playChime(muted ? 0 : volume, this.runningContext());
          this.chime = chime;
          await chime.done;
          if (this.chime === chime) this.chime = null;
        }
        this.heard.delete(item.replyId);
      } else {
        this.prefetch();
        const clip = await (item.clip ?? this.fetchClip(item));
        if (generation !== this.generation) return;
        if (!this.failedReplies.has(item.replyId) || clip.kind !== 'silent') {
          const played = await this.play(clip, generation, item.replyId);
          if (played) this.heard.add(item.replyId);
          if (played && !item.replyId.includes('#replay-')) this.keepForReplay(item.replyId, clip);
        }
      }
      if (generation !== this.generation) return;
      this.queue.shift();
    }
    if (generation === this.generation) {
      this.running = false;
      this.options.onActiveChange(false);
    }
  }

  private play(clip: Clip, generation: number, replyId: string): Promise<boolean> {
    if (clip.kind === 'silent') return Promise.resolve(false);
    if (clip.kind === 'browser') {
      this.options.onPlaybackStart?.(replyId);
      return this.speakInBrowser(clip.text);
    }
    if (clip.kind === 'stream') return this.playArriving(clip, generation, replyId);
    return this.playAudio(clip, generation, replyId);
  }

  private runningContext(): AudioContext | null {
    return this.context?.state === 'running' ? this.context : null;
  }

  /** The clip as samples for the call's AudioContext; null when it cannot be decoded (then <audio> plays it). */
  private async decode(blob: Blob): Promise<AudioBuffer | null> {
    const context = this.runningContext();
    if (!context) return null;
    try {
      const bytes = new Uint8Array(await blob.arrayBuffer());
      return wavToAudioBuffer(context, bytes) ?? (await context.decodeAudioData(bytes.buffer));
    } catch {
      return null;
    }
  }

  private stopSource() {
    const playing = this.source;
    this.source = null;
    if (!playing) return;
    for (const node of playing.nodes) {
      try {
        node.stop();
      } catch {
        // Already stopped.
      }
      node.disconnect();
    }
    playing.gain.disconnect();
    playing.cancel();
  }

  private async playAudio(clip: Extract<Clip, { kind: 'audio' }>, generation: number, replyId: string): Promise<boolean> {
    if (this.runningContext()) {
      const buffer = await (clip.decoded ?? this.decode(clip.blob));
      if (generation !== this.generation) return false;
      const context = this.runningContext();
      if (buffer && context) return this.playBuffer(context, buffer, clip.multiplier, replyId);
    }
    return this.playElement(clip, generation, replyId);
  }

  /** Through the call's AudioContext: audible from start(), silent from stop() (barge-in). */
  private playBuffer(context: AudioContext, buffer: AudioBuffer, multiplier: number, replyId: string): Promise<boolean> {
    const { playing, ended } = this.openSource(context, multiplier);
    const finished = ended(this.schedule(context, playing, buffer, 0));
    this.options.onPlaybackStart?.(replyId);
    return finished.then((ok) => this.closeSource(playing, ok));
  }

  /**
   * A streamed sentence: each run of samples is scheduled right after the previous one as it
   * arrives (gapless while the audio comes faster than it plays). Audio that is not 16-bit PCM, or
   * a context that is not running, waits for the whole sentence and plays it as a file.
   */
  private async playArriving(clip: Extract<Clip, { kind: 'stream' }>, generation: number, replyId: string): Promise<boolean> {
    const context = this.runningContext();
    if (!context || clip.audio.unsupported) return this.playWhole(clip, generation, replyId);
    const { playing, ended } = this.openSource(context, clip.multiplier);
    let last: Promise<boolean> | null = null;
    let at = 0;
    for (;;) {
      const frames = clip.audio.take();
      if (frames) {
        const buffer = context.createBuffer(frames.channels.length, frames.channels[0]!.length, frames.sampleRate);
        frames.channels.forEach((samples, ch) => buffer.copyToChannel(samples, ch));
        const node = this.schedule(context, playing, buffer, at);
        at = Math.max(at, context.currentTime) + buffer.duration;
        if (!last) this.options.onPlaybackStart?.(replyId);
        last = ended(node);
      } else if (clip.audio.ended || clip.audio.unsupported) break;
      else await clip.audio.arrival();
      if (generation !== this.generation || this.source !== playing) return false;
    }
    if (!last) {
      this.closeSource(playing, false);
      // Nothing playable arrived: a format we cannot stream is played whole.
      return clip.audio.unsupported ? this.playWhole(clip, generation, replyId) : false;
    }
    return this.closeSource(playing, await last);
  }

  private async playWhole(clip: Extract<Clip, { kind: 'stream' }>, generation: number, replyId: string): Promise<boolean> {
    while (!clip.audio.ended) await clip.audio.arrival();
    if (generation !== this.generation) return false;
    return this.playAudio(this.bytesClip(clip.audio.bytes(), clip.mime, clip.multiplier), generation, replyId);
  }

  /** The sentence's volume, and a promise per piece that tells whether it played to its end. */
  private openSource(context: AudioContext, multiplier: number) {
    const gain = context.createGain();
    this.currentMultiplier = multiplier;
    gain.gain.value = this.volumeFor(multiplier);
    gain.connect(context.destination);
    const cancels = new Set<() => void>();
    const playing = { nodes: [] as AudioBufferSourceNode[], gain, cancel: () => cancels.forEach((c) => c()) };
    this.source = playing;
    const ended = (node: AudioBufferSourceNode) =>
      new Promise<boolean>((resolve) => {
        // Also fired by stop(): a stopped sentence did not play to its end. A piece stopped before
        // its start time may never fire it, so stopSource settles it too.
        cancels.add(() => resolve(false));
        node.addEventListener('ended', () => resolve(this.source === playing), { once: true });
      });
    return { playing, ended };
  }

  /** Starts `buffer` at context time `at` (now, if that has passed). */
  private schedule(context: AudioContext, playing: { nodes: AudioBufferSourceNode[]; gain: GainNode }, buffer: AudioBuffer, at: number) {
    const node = context.createBufferSource();
    node.buffer = buffer;
    node.connect(playing.gain);
    playing.nodes.push(node);
    node.start(Math.max(at, context.currentTime));
    return node;
  }

  private closeSource(playing: NonNullable<SpeechPlayer['source']>, ok: boolean): boolean {
    if (this.source === playing) {
      this.source = null;
      for (const node of playing.nodes) node.disconnect();
      playing.gain.disconnect();
    }
    return ok;
  }

  /** Through an <audio> element, from an object URL that lives only while it plays (it keeps the audio alive). */
  private async playElement(clip: Extract<Clip, { kind: 'audio' }>, generation: number, replyId: string): Promise<boolean> {
    const url = URL.createObjectURL(clip.blob);
    try {
      return await this.playElementFrom(url, clip.multiplier, generation, replyId);
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  private async playElementFrom(url: string, multiplier: number, generation: number, replyId: string): Promise<boolean> {
    const el = new Audio(url);
    this.current = el;
    this.currentMultiplier = multiplier;
    el.volume = this.volumeFor(multiplier);
    el.addEventListener('playing', () => this.options.onPlaybackStart?.(replyId), { once: true });
    const finished = new Promise<boolean>((resolve) => {
      el.addEventListener('ended', () => resolve(true), { once: true });
      el.addEventListener('error', () => resolve(false), { once: true });
      el.addEventListener('pause', () => {
        if (generation !== this.generation) resolve(false);
      });
    });
    try {
      await el.play();
    } catch (err) {
      if (generation !== this.generation) return false;
      if (err instanceof DOMException && err.name === 'NotAllowedError') {
        // Autoplay blocked: wait for the Play button (a gesture), then play this sentence and go on.
        const tapped = await new Promise<boolean>((resolve) => {
          this.setBlocked(() => resolve(true));
          this.fetches.signal.addEventListener('abort', () => resolve(false), { once: true });
        });
        this.setBlocked(null);
        if (!tapped || generation !== this.generation) return false;
        try {
          await el.play();
        } catch {
          this.options.onError(messages.voice.playbackFailed);
          return false;
        }
      } else {
        this.options.onError(messages.voice.playbackFailed);
        return false;
      }
    }
    const ok = await finished;
    if (!ok && generation === this.generation) this.options.onError(messages.voice.playbackFailed);
    if (this.current === el) this.current = null;
    return ok;
  }

  private setBlocked(unblock: (() => void) | null) {
    const was = this.unblock !== null;
    this.unblock = unblock;
    if (was !== (unblock !== null)) this.options.onAutoplayBlocked(unblock !== null);
  }

  /** The spec's fallback voice: the browser's speech synthesis, rate 0.9, pitch 1. */
  private speakInBrowser(text: string): Promise<boolean> {
    if (typeof speechSynthesis === 'undefined' || typeof SpeechSynthesisUtterance === 'undefined') return Promise.resolve(false);
    return new Promise((resolve) => {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.rate = BROWSER_RATE;
      utterance.pitch = BROWSER_PITCH;
      utterance.volume = this.volumeFor(voiceVolumeMultiplier('browser', ''));
      // Some browsers (and machines without voices) never fire "end": do not wait forever.
      const timer = setTimeout(() => resolve(true), 3000 + text.length * 90);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        resolve(ok);
      };
      utterance.onend = () => done(true);
      utterance.onerror = () => done(false);
      speechSynthesis.speak(utterance);
    });
  }
}
