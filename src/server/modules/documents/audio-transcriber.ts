// Turns an uploaded audio file into its transcript for the document job: the file is cut into
// pieces the speech-to-text service accepts (audio-file.ts), at most two pieces are transcribed at
// once, and the texts are joined in order. After each piece the texts so far are handed to
// `checkpoint` (the job stores them), so an attempt after a crash or restart does only the pieces
// not yet done and never redoes a finished one.
import { splitAudio, type AudioFormat } from '../../ai/speech/audio-file';
import { SpeechProviderError, type SpeechToText } from '../../ai/speech/speech-types';
import { PermanentJobError } from '../../jobs/job-runner';
import { messages } from '../../../shared/messages';

/** Pieces transcribed at the same time: enough to hide a round trip, gentle on rate limits. */
export const TRANSCRIBE_CONCURRENCY = 2;

export interface TranscribeOptions {
  signal: AbortSignal;
  /** Texts of the pieces an earlier attempt finished, by piece (null: not done yet). */
  done: (string | null)[];
  /** Called after each piece with every finished text so far, by piece, and the share done. */
  checkpoint: (texts: (string | null)[], fraction: number) => Promise<void>;
}

export interface AudioTranscriber {
  /** The formats this server can transcribe (the offline recognizer reads WAV only). */
  readonly formats: readonly AudioFormat[];
  readonly engine: SpeechToText['engine'];
  transcribe(bytes: Uint8Array, format: AudioFormat, options: TranscribeOptions): Promise<string>;
}

export function createAudioTranscriber(stt: SpeechToText): AudioTranscriber {
  return {
    formats: stt.fileFormats,
    engine: stt.engine,
    async transcribe(bytes, format, { signal, done, checkpoint }) {
      const pieces = splitAudio(bytes, format);
      if (pieces.length === 0) throw new PermanentJobError(messages.documents.audioUnreadable);
      const texts: (string | null)[] = pieces.map((_, i) => (typeof done[i] === 'string' ? done[i]! : null));
      const todo = texts.flatMap((t, i) => (t === null ? [i] : []));
      let failure: unknown;
      // Checkpoints are written one after another, each with every text finished so far.
      let saving = Promise.resolve();
      const save = () => {
        const snapshot = [...texts];
        const fraction = snapshot.filter((t) => t !== null).length / pieces.length;
        saving = saving.then(() => checkpoint(snapshot, fraction));
        return saving;
      };
      const worker = async () => {
        for (let i = todo.shift(); i !== undefined && failure === undefined; i = todo.shift()) {
          signal.throwIfAborted();
          try {
            texts[i] = await stt.transcribeFile(pieces[i]!, signal);
          } catch (err) {
            failure ??= err;
            return;
          }
          await save();
        }
      };
      await Promise.all(Array.from({ length: Math.min(TRANSCRIBE_CONCURRENCY, Math.max(todo.length, 1)) }, worker));
      await saving;
      if (failure !== undefined) throw jobError(failure, signal);
      return join(texts as string[]);
    },
  };
}

function join(texts: string[]): string {
  return texts
    .map((t) => t.trim())
    .filter(Boolean)
    .join('\n\n');
}

/**
 * A rate limit, a server error or an unreachable service may pass: the job runner retries with
 * back-off. A quota or a refusal of the file will not: the document fails with the reason.
 */
function jobError(err: unknown, signal: AbortSignal): Error {
  if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new Error('aborted');
  if (!(err instanceof SpeechProviderError)) return err instanceof Error ? err : new Error(String(err));
  if (err.kind === 'quota') return new PermanentJobError(messages.voice.quotaExceeded);
  const passing = err.kind === 'rate_limit' || err.status === undefined || err.status >= 500;
  const message = messages.voice.sttError(err.message);
  return passing ? new Error(message) : new PermanentJobError(message);
}
