// Open mic's voice turn (POST /api/personalities/{id}/voice/turn) answers newline-delimited JSON:
// the transcript first, then the chat's own events (start, delta*, done or error; chat-stream.ts)
// with the reply's speech interleaved, one `speech` event per sentence, in order. A sentence in WAV
// is streamed as the provider makes it: its `speech` event carries the first bytes and `more`, and
// `speech-more` events carry the rest (the browser plays the first ~80 ms while the rest comes,
// instead of waiting for the whole sentence's audio). Refusals (429, 404, 422 NO_SPEECH ...) come
// before any line, as the usual JSON error. Browser-safe.
import type { ChatStreamEvent } from './chat-stream';
import type { PronunciationReport } from './schemas/pronunciation';

export interface TurnTranscriptEvent {
  type: 'transcript';
  text: string;
  engine: string;
  approximate: boolean;
  /** Phonetic mode: how each word was pronounced (the reply coaches on it). */
  pronunciation?: PronunciationReport;
}

/** One sentence of the reply, spoken: its audio, or why it has none. */
export type TurnSpeechEvent =
  | {
      type: 'speech';
      index: number;
      text: string;
      mime: string;
      /** The audio bytes, base64 (with `more`, only the first of them). */
      audio: string;
      /** Provider x per-voice volume multiplier (spec section 9). */
      volume: number;
      provider: string;
      /** The rest of this sentence's bytes follow in `speech-more` events (the last one without `more`). */
      more?: boolean;
    }
  | {
      type: 'speech';
      index: number;
      text: string;
      /** TTS_FALLBACK / TTS_BROWSER: the browser speaks `text`; anything else: `message` is shown and the rest of the reply is silent. */
      error: { code: string; message: string };
    };

/** The next bytes of a streamed sentence (`index`), in order; without `more`, its last. */
export interface TurnSpeechMoreEvent {
  type: 'speech-more';
  index: number;
  /** Base64; may be empty (the provider's stream ended, or failed, after the last bytes). */
  audio: string;
  more?: boolean;
}

/** What the player is given: sentences and the rest of streamed ones. */
export type TurnAudioEvent = TurnSpeechEvent | TurnSpeechMoreEvent;

export type VoiceTurnEvent = TurnTranscriptEvent | ChatStreamEvent | TurnAudioEvent;

export const isSpeechEvent = (e: VoiceTurnEvent): e is TurnAudioEvent => e.type === 'speech' || e.type === 'speech-more';
export const isChatEvent = (e: VoiceTurnEvent): e is ChatStreamEvent => e.type !== 'transcript' && !isSpeechEvent(e);

/** Codes after which the browser's own voice speaks the sentence (the spec's OpenAI / embedded fallback). */
export const BROWSER_VOICE_CODES = new Set(['TTS_FALLBACK', 'TTS_BROWSER']);

/** Incremental NDJSON parser: feed decoded text, get whole events back (a broken line is skipped). */
export function createTurnStreamParser() {
  let buffer = '';
  return {
    feed(text: string, end = false): VoiceTurnEvent[] {
      buffer += text;
      const lines = buffer.split('\n');
      buffer = end ? '' : lines.pop()!;
      const events: VoiceTurnEvent[] = [];
      for (const line of lines) {
        if (!line.trim()) continue;
        try {
          events.push(JSON.parse(line) as VoiceTurnEvent);
        } catch {
          // Not a whole event: nothing to act on.
        }
      }
      return events;
    },
  };
}
