// The embedded voice's queue: every request of the process waits its turn for the one flite process
// (flite-process.ts), which speaks one piece at a time. The wait is bounded (past it, a refusal the
// voice route answers like any provider failure), a request given up (its signal aborted: the
// visitor left, barge-in) leaves the queue at once, and one under way stops after its current piece,
// so the next visitor waits for at most that piece.
import { joinWavs, splitIntoPieces } from './flite-pieces';
import { FliteProcess, FliteStoppedError } from './flite-process';

export interface FliteSpeakerOptions {
  /** Requests waiting behind the one being spoken; more are refused (FliteBusyError). */
  maxWaiting?: number;
  /** The longest piece one flite instance speaks (~300 ms for 600 characters). */
  maxPieceChars?: number;
  pieceTimeoutMs?: number;
}

/** The queue is full: said at once rather than after a wait nobody would sit through. */
export class FliteBusyError extends Error {
  constructor(waiting: number) {
    super(`the embedded voice is busy (${waiting} requests waiting); try again in a moment`);
    this.name = 'FliteBusyError';
  }
}

export interface FliteSpeaker {
  /** The whole text as one WAV; rejects once `signal` aborts, FliteBusyError when the queue is full. */
  synthesize(text: string, signal?: AbortSignal): Promise<Uint8Array>;
  /** Pieces flite has spoken since this speaker started (what tests count instead of timing). */
  readonly piecesSynthesized: number;
  readonly processId: number | undefined;
  close(): void;
}

interface Job {
  pieces: string[];
  signal?: AbortSignal;
  resolve: (wav: Uint8Array) => void;
  reject: (err: unknown) => void;
}

/**
 * 16 waiting: a voice turn asks for two sentences ahead, the speech route one text; beyond that many
 * visitors at once, the browser's voice answers sooner than the queue would.
 */
const DEFAULT_MAX_WAITING = 16;
const DEFAULT_MAX_PIECE_CHARS = 600;

export function createFliteSpeaker(wasmPath: string, options: FliteSpeakerOptions = {}): FliteSpeaker {
  const maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
  const maxPieceChars = options.maxPieceChars ?? DEFAULT_MAX_PIECE_CHARS;
  const flite = new FliteProcess(wasmPath, options.pieceTimeoutMs);
  const waiting: Job[] = [];
  let running = false;
  let piecesSynthesized = 0;

  async function speak(job: Job): Promise<Uint8Array | undefined> {
    const wavs: Uint8Array[] = [];
    for (const piece of job.pieces) {
      if (job.signal?.aborted) return undefined;
      wavs.push(await speakPiece(piece));
      piecesSynthesized++;
    }
    return joinWavs(wavs);
  }

  /** A piece whose process crashed is spoken once more by the new one; a second crash fails it. */
  async function speakPiece(piece: string): Promise<Uint8Array> {
    try {
      return await flite.run(piece);
    } catch (err) {
      if (!(err instanceof FliteStoppedError && err.crashed)) throw err;
      return flite.run(piece);
    }
  }

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      for (let job = waiting.shift(); job; job = waiting.shift()) {
        try {
          const wav = await speak(job);
          // Given up: its promise was rejected when the signal aborted.
          if (wav) job.resolve(wav);
        } catch (err) {
          // This request only (a flite process that died is replaced for the next one).
          job.reject(err);
        }
      }
    } finally {
      running = false;
    }
  }

  return {
    synthesize(text, signal) {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      if (waiting.length >= maxWaiting) return Promise.reject(new FliteBusyError(waiting.length));
      const pieces = splitIntoPieces(text, maxPieceChars);
      return new Promise<Uint8Array>((resolve, reject) => {
        const onAbort = () => {
          const at = waiting.indexOf(job);
          if (at >= 0) waiting.splice(at, 1);
          reject(abortReason(signal!));
        };
        const job: Job = {
          // Blank text: flite's own (silent) answer, as before pieces.
          pieces: pieces.length ? pieces : [text],
          signal,
          resolve: (wav) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(wav);
          },
          reject: (err) => {
            signal?.removeEventListener('abort', onAbort);
            reject(err);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(job);
        void drain();
      });
    },
    get piecesSynthesized() {
      return piecesSynthesized;
    },
    get processId() {
      return flite.processId;
    },
    close() {
      flite.close();
    },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The speech was cancelled.', 'AbortError');
}
