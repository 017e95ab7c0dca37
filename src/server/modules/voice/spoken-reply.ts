// Speaks a reply while its text is still streaming from the model (open mic's voice turn): each
// sentence is cut as soon as it is complete and its speech requested at once, so the first
// sentence is heard long before the reply ends. At most AHEAD sentences are synthesized at a time
// (a reply cut short by barge-in spends little), and they are emitted strictly in order. A failure
// the browser's voice can stand in for (TTS_FALLBACK / TTS_BROWSER) is emitted for that sentence
// and the reply goes on; any other (ElevenLabs failing, credits spent, the speech rate limit)
// is emitted once and the rest of the reply stays silent, as the speech route's player does.
import { SentenceStream } from '../../../shared/sentence-stream';
import { BROWSER_VOICE_CODES, type TurnSpeechEvent } from '../../../shared/voice-turn-stream';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';

export interface SpokenAudio {
  mime: string;
  bytes: Uint8Array;
  volume: number;
  provider: string;
}

export interface SpokenReplyDeps {
  /** One sentence's audio, in the personality's voice (its limits and credits counted); throws AppError. */
  speak(text: string, signal: AbortSignal): Promise<SpokenAudio>;
  emit(event: TurnSpeechEvent): Promise<unknown>;
  /** Barge-in / a dropped connection: speech in flight is cancelled, nothing more is emitted. */
  signal: AbortSignal;
  ahead?: number;
}

/** Two in flight: the next sentence is ready when the current one is, without synthesizing a whole reply. */
const AHEAD = 2;

interface Job {
  text: string;
  outcome?: Promise<TurnSpeechEvent | null>;
}

export function createSpokenReply(deps: SpokenReplyDeps) {
  const ahead = deps.ahead ?? AHEAD;
  let sentences = new SentenceStream();
  const jobs: Job[] = [];
  let next = 0;
  let silenced = false;
  let emitting: Promise<void> = Promise.resolve();
  let pumping = false;

  async function synthesize(index: number, text: string): Promise<TurnSpeechEvent | null> {
    try {
      const a = await deps.speak(text, deps.signal);
      return { type: 'speech', index, text, mime: a.mime, audio: Buffer.from(a.bytes).toString('base64'), volume: a.volume, provider: a.provider };
    } catch (err) {
      // Nothing speakable in it (only a citation, say): skipped, not a failure of the reply.
      if (err instanceof AppError && err.code === 'BAD_REQUEST') return null;
      const e = err instanceof AppError ? err : new AppError('INTERNAL', messages.voice.playbackFailed);
      return { type: 'speech', index, text, error: { code: e.code, message: e.message } };
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
        const event = await job.outcome!;
        if (deps.signal.aborted) break;
        if (jobs[next] !== job) continue; // replaced by a fallback meanwhile
        if (event) await deps.emit(event);
        next += 1;
        if (event && 'error' in event && !BROWSER_VOICE_CODES.has(event.error.code)) silenced = true;
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
      jobs.length = next;
      sentences = new SentenceStream();
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
