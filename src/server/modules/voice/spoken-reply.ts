// Speaks a reply while its text is still streaming from the model (open mic's voice turn): each
// sentence is cut as soon as it is complete and its speech requested at once, so the first
// sentence is heard long before the reply ends. At most AHEAD sentences are synthesized at a time
// (a reply cut short by barge-in spends little), and they are emitted strictly in order. WAV is
// passed on as the provider streams it (the sentence's first bytes at once, the rest in
// `speech-more` events), so the browser starts playing before the sentence's audio is complete;
// other formats (MP3) are sent whole, since the browser decodes them whole. A failure the
// browser's voice can stand in for (TTS_FALLBACK / TTS_BROWSER) is emitted for that sentence and
// the reply goes on; any other (ElevenLabs failing, credits spent, the speech rate limit) is
// emitted once and the rest of the reply stays silent, as the speech route's player does.
import { SentenceStream } from '../../../shared/sentence-stream';
import { BROWSER_VOICE_CODES, type TurnAudioEvent, type TurnSpeechEvent } from '../../../shared/voice-turn-stream';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';

export interface SpokenAudio {
  mime: string;
  /** The audio as the provider sends it. */
  stream: ReadableStream<Uint8Array>;
  volume: number;
  provider: string;
}

export interface SpokenReplyDeps {
  /**
   * One sentence's audio, in the personality's voice (its limits and credits counted); throws
   * AppError. Calls `counted` once its limits and credits are counted (before synthesizing): the
   * next sentence counts only then, so sentences take the budget in their order.
   */
  speak(text: string, signal: AbortSignal, counted: () => void): Promise<SpokenAudio>;
  emit(event: TurnAudioEvent): Promise<unknown>;
  /** Barge-in / a dropped connection: speech in flight is cancelled, nothing more is emitted. */
  signal: AbortSignal;
  ahead?: number;
}

/** Two in flight: the next sentence is ready when the current one is, without synthesizing a whole reply. */
const AHEAD = 2;

/** Formats the browser can play piece by piece (16-bit PCM in a RIFF header, wav-samples.ts). */
const STREAMED_MIMES = new Set(['audio/wav', 'audio/x-wav', 'audio/wave']);

/**
 * A sentence's audio arriving from the provider: read at once (so a sentence synthesized ahead is
 * ready when its turn comes) and handed out as whatever arrived since the last `next()`.
 */
class ArrivingAudio {
  private pieces: Uint8Array[] = [];
  private ended = false;
  private wake: (() => void) | null = null;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
    void this.pull(this.reader);
  }

  /** Not wanted any more (the reply was replaced): the provider's stream is cancelled, `next()` ends. */
  stop() {
    this.ended = true;
    this.pieces = [];
    this.reader.cancel().catch(() => undefined);
    this.notify();
  }

  private async pull(reader: ReadableStreamDefaultReader<Uint8Array>) {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (this.ended) break;
        if (value.byteLength) this.pieces.push(value);
        this.notify();
      }
    } catch {
      // Cancelled (barge-in) or cut off mid-sentence: what arrived is played, the sentence ends there.
    } finally {
      this.ended = true;
      this.notify();
    }
  }

  private notify() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** The bytes that arrived since the last call, waiting for some; null once the audio has ended. */
  async next(): Promise<Uint8Array | null> {
    while (this.pieces.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.pieces.length === 0) return null;
    const out = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    this.pieces = [];
    return out;
  }

  /** Everything, once the audio has ended. */
  async whole(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for (let piece = await this.next(); piece; piece = await this.next()) parts.push(piece);
    return Buffer.concat(parts);
  }
}

/** A sentence ready to be emitted: one event, nothing (nothing speakable), or audio still arriving. */
type Outcome = TurnSpeechEvent | null | { head: Omit<Extract<TurnSpeechEvent, { mime: string }>, 'audio' | 'more'>; audio: ArrivingAudio };

interface Job {
  text: string;
  outcome?: Promise<Outcome>;
  /** Its audio while it is being sent (streamed sentences). */
  sending?: ArrivingAudio;
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export function createSpokenReply(deps: SpokenReplyDeps) {
  const ahead = deps.ahead ?? AHEAD;
  let sentences = new SentenceStream();
  const jobs: Job[] = [];
  let next = 0;
  let silenced = false;
  let emitting: Promise<void> = Promise.resolve();
  let pumping = false;
  // Whether the sentence before the next one to start had its limits counted (false: refused).
  // Sentences are synthesized two at a time, but counted one after another in reply order: counted
  // together, the second could take the last of a limit and the first be refused, which silences
  // the reply from its very first sentence (a CI run met it).
  let previousCounted: Promise<boolean> = Promise.resolve(true);

  async function synthesize(index: number, text: string): Promise<Outcome> {
    const turn = previousCounted;
    let counted!: (ok: boolean) => void;
    previousCounted = new Promise((resolve) => (counted = resolve));
    try {
      // An earlier sentence refused by a limit silences the rest: this one counts nothing.
      if (!(await turn)) {
        counted(false);
        return null;
      }
      const a = await deps.speak(text, deps.signal, () => counted(true));
      counted(true);
      const head = { type: 'speech' as const, index, text, mime: a.mime, volume: a.volume, provider: a.provider };
      const audio = new ArrivingAudio(a.stream);
      if (STREAMED_MIMES.has(a.mime)) return { head, audio };
      return { ...head, audio: base64(await audio.whole()) };
    } catch (err) {
      // Nothing speakable in it (only a citation, say): skipped, not a failure of the reply.
      if (err instanceof AppError && err.code === 'BAD_REQUEST') {
        counted(true);
        return null;
      }
      const e = err instanceof AppError ? err : new AppError('INTERNAL', messages.voice.playbackFailed);
      // The browser's voice stands in and the reply goes on; any other failure silences the rest.
      counted(BROWSER_VOICE_CODES.has(e.code));
      return { type: 'speech', index, text, error: { code: e.code, message: e.message } };
    }
  }

  /**
   * A streamed sentence: its first bytes as they come, then the rest as they arrive, in order. A
   * reply replaced meanwhile (withheld, failed) ends the sentence where it is.
   */
  async function emitArriving(job: Job, { head, audio }: Extract<Outcome, { head: unknown }>) {
    job.sending = audio;
    let piece = await audio.next();
    if (deps.signal.aborted) return;
    await deps.emit({ ...head, audio: base64(piece ?? new Uint8Array()), more: piece !== null });
    while (piece) {
      piece = await audio.next();
      if (deps.signal.aborted) return;
      if (jobs[next] !== job) piece = null;
      await deps.emit(piece ? { type: 'speech-more', index: head.index, audio: base64(piece), more: true } : { type: 'speech-more', index: head.index, audio: '' });
    }
  }

  function startAhead() {
    for (let i = next; i < jobs.length && i < next + ahead; i++) {
      const job = jobs[i]!;
      job.outcome ??= synthesize(i, job.text);
    }
  }

  function pump() {
    startAhead();
    if (pumping) return;
    pumping = true;
    emitting = (async () => {
      while (next < jobs.length && !silenced && !deps.signal.aborted) {
        const job = jobs[next]!;
        startAhead();
        const outcome = await job.outcome!;
        if (deps.signal.aborted) break;
        if (jobs[next] !== job) continue; // replaced by a fallback meanwhile
        if (outcome && 'head' in outcome) await emitArriving(job, outcome);
        else if (outcome) await deps.emit(outcome);
        if (deps.signal.aborted) break;
        if (jobs[next] !== job) continue; // replaced while it was being sent
        next += 1;
        if (outcome && 'error' in outcome && !BROWSER_VOICE_CODES.has(outcome.error.code)) silenced = true;
      }
      pumping = false;
    })();
  }

  function enqueue(texts: string[]) {
    if (silenced || deps.signal.aborted || texts.length === 0) return;
    for (const text of texts) jobs.push({ text });
    pump();
  }

  return {
    /** The reply so far (it only grows): speaks the sentences it completed. */
    push: (reply: string) => enqueue(sentences.push(reply)),
    /** The complete reply: speaks what is left of it. */
    finish: (reply: string) => enqueue(sentences.finish(reply)),
    /** The reply was replaced (the model failed, or the reply was withheld): what is not yet spoken is dropped, `text` is spoken instead. */
    replaceWith(text: string) {
      jobs[next]?.sending?.stop();
      jobs.length = next;
      sentences = new SentenceStream();
      // The dropped sentences' counting is no reason to hold back (or skip) the replacement.
      previousCounted = Promise.resolve(true);
      enqueue(sentences.finish(text));
    },
    /** Settles once every sentence so far has been emitted (or the turn was cancelled). */
    done: async () => {
      for (let seen: Promise<void> | undefined; seen !== emitting; ) {
        seen = emitting;
        await seen;
      }
    },
  };
}
