// The embedded model thread's schedule. One forward pass of the model over several texts costs far
// less than one pass per text (Universal Sentence Encoder lite, wasm, one thread: one question
// ~23 ms, ten questions in one pass ~88 ms), so questions that wait while a pass runs go through
// the next pass together instead of one after another (ten chats at once: the last question was
// embedded after ~230 ms, now after ~110 ms). Questions go before documents: a document's texts
// are embedded a few at a time, and a waiting question takes the next pass. A request that is
// cancelled (a stopping server's document batch) ends at once: its remaining texts get no pass, and
// the pass in flight, which cannot be interrupted, is discarded for it when it ends.
import { settleOrAbort } from '../../lib/abort-listener';

/** One pass of the model: a vector per text, in order. */
export type EmbedPass = (texts: string[]) => Promise<number[][]>;

export interface EmbedQueueLimits {
  /** Most texts in one pass. */
  texts: number;
  /** Most characters in one pass (bounds its tensors' memory); a longer single text still goes alone. */
  chars: number;
  /** Most texts in a pass of a document's texts (long chunks: memory, and a question's wait behind it). */
  documentTexts: number;
}

export const DEFAULT_LIMITS: EmbedQueueLimits = { texts: 16, chars: 16_000, documentTexts: 8 };

export interface Embedded {
  dimensions: number;
  /** The vectors one after another, unit length. */
  vectors: Float32Array;
}

interface Job {
  texts: string[];
  /** Texts already embedded (a document's job goes through several passes). */
  done: number;
  vectors?: Float32Array;
  dimensions: number;
  /** Failed in a shared pass: retried in a pass of its own, so one bad text fails no one else. */
  alone: boolean;
  resolve(result: Embedded): void;
  reject(err: Error): void;
}

export function createEmbedQueue(pass: EmbedPass, limits: EmbedQueueLimits = DEFAULT_LIMITS) {
  const jobs: Job[] = [];
  let draining = false;

  /** The next pass: waiting questions together (up to the limits), else the oldest document's next texts. */
  function nextPass(): { job: Job; from: number; count: number }[] {
    const lonely = jobs.find((j) => j.alone);
    if (lonely) return [{ job: lonely, from: lonely.done, count: lonely.texts.length - lonely.done }];
    const questions = jobs.filter(isQuestion);
    if (questions.length > 0) {
      const taken: { job: Job; from: number; count: number }[] = [];
      let chars = 0;
      for (const job of questions) {
        const length = job.texts[0]!.length;
        if (taken.length > 0 && (taken.length >= limits.texts || chars + length > limits.chars)) break;
        taken.push({ job, from: 0, count: 1 });
        chars += length;
      }
      return taken;
    }
    const job = jobs[0]!;
    let count = 0;
    let chars = 0;
    while (job.done + count < job.texts.length && count < limits.documentTexts) {
      const length = job.texts[job.done + count]!.length;
      if (count > 0 && chars + length > limits.chars) break;
      chars += length;
      count++;
    }
    return [{ job, from: job.done, count }];
  }

  function finish(job: Job, outcome: { error: Error } | { result: Embedded }) {
    const at = jobs.indexOf(job);
    if (at < 0) return; // cancelled meanwhile: already answered
    jobs.splice(at, 1);
    if ('error' in outcome) job.reject(outcome.error);
    else job.resolve(outcome.result);
  }

  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (jobs.length > 0) {
        const parts = nextPass();
        const texts = parts.flatMap(({ job, from, count }) => job.texts.slice(from, from + count).map((t) => t || ' '));
        let vectors: number[][];
        try {
          vectors = await pass(texts);
          if (vectors.length !== texts.length) throw new Error(`the model returned ${vectors.length} vectors for ${texts.length} texts`);
        } catch (err) {
          const error = err instanceof Error ? err : new Error(String(err));
          if (parts.length === 1) finish(parts[0]!.job, { error });
          else for (const { job } of parts) job.alone = true;
          continue;
        }
        let at = 0;
        for (const { job, from, count } of parts) {
          if (!jobs.includes(job)) {
            at += count; // cancelled during the pass
            continue;
          }
          for (let i = 0; i < count; i++) {
            const v = unit(vectors[at++]!);
            job.dimensions ||= v.length;
            job.vectors ??= new Float32Array(job.texts.length * job.dimensions);
            job.vectors.set(v, (from + i) * job.dimensions);
          }
          job.done = from + count;
          if (job.done === job.texts.length) finish(job, { result: { dimensions: job.dimensions, vectors: job.vectors! } });
        }
        // Let requests that arrived during the pass join the queue before the next one is chosen.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      draining = false;
    }
  }

  return {
    /** `signal` cancels the request: it rejects with the signal's reason and gets no more passes. */
    embed(texts: string[], signal?: AbortSignal): Promise<Embedded> {
      if (signal?.aborted) return Promise.reject(reasonOf(signal));
      if (texts.length === 0) return Promise.resolve({ dimensions: 0, vectors: new Float32Array(0) });
      return new Promise<Embedded>((resolve, reject) => {
        const settle = settleOrAbort(signal, { resolve, reject }, () => finish(job, { error: reasonOf(signal!) }));
        const job: Job = { texts, done: 0, dimensions: 0, alone: false, resolve: settle.resolve, reject: settle.reject };
        jobs.push(job);
        void drain();
      });
    },
  };
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the request was cancelled');
}

/** A question: one text. It goes before any document's texts. */
function isQuestion(job: Job): boolean {
  return job.texts.length === 1;
}

function unit(v: number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}
