// The spec's Pronunciation report (section 3): how each word of what the person meant to say was
// pronounced, and the mispronunciations by priority. Made on the server by the transcribe route in
// phonetic mode; sent back with the chat message so the reply can coach; shown under the message.
import { z } from 'zod';

export const WORD_ERROR_TYPES = ['None', 'Mispronunciation', 'Omission', 'Insertion'] as const;
export type WordErrorType = (typeof WORD_ERROR_TYPES)[number];

const word = z.string().max(100);
const score = z.number().min(0).max(100);

export const pronunciationReportSchema = z.object({
  /** false: no assessment service here (the chat still works; `message` says why). */
  available: z.boolean(),
  engine: z.enum(['azure', 'pocketsphinx']).nullable(),
  /** Offline assessment from the embedded recognizer's word alignment is approximate. */
  approximate: z.boolean(),
  /** What the person meant to say (the corrected transcript). */
  referenceText: z.string().max(2000),
  /** What was heard, word for word. */
  heardText: z.string().max(2000),
  /** 0-100 over the reference words, null when unavailable. */
  accuracyScore: score.nullable(),
  wordDetails: z.array(z.object({ word, accuracyScore: score, errorType: z.enum(WORD_ERROR_TYPES) })).max(400),
  mispronunciations: z.array(z.object({ expected: word, actual: word, accuracyScore: score, priority: z.enum(['high', 'medium', 'low']) })).max(400),
  message: z.string().max(500).optional(),
});
export type PronunciationReport = z.infer<typeof pronunciationReportSchema>;
