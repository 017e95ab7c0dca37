// Builds the Pronunciation report from per-word scores, whoever scored them (Azure, or the
// approximate offline alignment below), and aligns what the offline recognizer heard, with its
// per-word confidence, against what the person meant to say.
import type { PronunciationReport, WordErrorType } from '../../../shared/schemas/pronunciation';

export interface ScoredWord {
  word: string;
  accuracyScore: number;
  errorType: WordErrorType;
  /** What was heard in its place (a substitution), when known. */
  actual?: string;
}

/** Below this a word counts as mispronounced (Azure's own guidance uses 60). */
export const MISPRONOUNCED_BELOW = 60;

function priority(score: number): 'high' | 'medium' | 'low' {
  return score < 40 ? 'high' : score < MISPRONOUNCED_BELOW ? 'medium' : 'low';
}

export function buildReport(input: {
  engine: 'azure' | 'pocketsphinx';
  approximate: boolean;
  referenceText: string;
  heardText: string;
  words: ScoredWord[];
}): PronunciationReport {
  // What was heard in place of each meant word, from the two transcripts (Azure scores the meant
  // words but does not say what it heard instead).
  const heardAs = alignApproximate(referenceWords(input.referenceText), referenceWords(input.heardText).map((word) => ({ word, confidence: 1 }))).filter(
    (w) => w.errorType !== 'Insertion',
  );
  let k = 0;
  const words = input.words.map((w) => {
    if (w.errorType === 'Insertion') return w;
    const heard = heardAs[k++];
    return w.actual === undefined && heard?.actual && heard.word.toLowerCase() === w.word.toLowerCase() ? { ...w, actual: heard.actual } : w;
  });
  const scored = words.filter((w) => w.errorType !== 'Insertion');
  const accuracy = scored.length ? Math.round(scored.reduce((sum, w) => sum + w.accuracyScore, 0) / scored.length) : null;
  const mispronunciations = words
    .filter((w) => w.errorType !== 'None' || w.accuracyScore < MISPRONOUNCED_BELOW)
    .map((w) => ({
      expected: w.errorType === 'Insertion' ? '' : w.word,
      actual: w.errorType === 'Omission' ? '' : (w.actual ?? (w.errorType === 'Insertion' ? w.word : w.word)),
      accuracyScore: Math.round(w.accuracyScore),
      priority: priority(w.accuracyScore),
    }))
    .sort((a, b) => a.accuracyScore - b.accuracyScore);
  return {
    available: true,
    engine: input.engine,
    approximate: input.approximate,
    referenceText: input.referenceText.slice(0, 2000),
    heardText: input.heardText.slice(0, 2000),
    accuracyScore: accuracy,
    wordDetails: words.slice(0, 400).map((w) => ({ word: w.word.slice(0, 100), accuracyScore: Math.round(w.accuracyScore), errorType: w.errorType })),
    mispronunciations: mispronunciations.slice(0, 400).map((m) => ({ ...m, expected: m.expected.slice(0, 100), actual: m.actual.slice(0, 100) })),
  };
}

export function unavailableReport(referenceText: string, heardText: string, message: string): PronunciationReport {
  return { available: false, engine: null, approximate: false, referenceText, heardText, accuracyScore: null, wordDetails: [], mispronunciations: [], message };
}

const normal = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
export const referenceWords = (text: string) => text.split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}']+$/gu, '')).filter(Boolean);

/** Letters in common, in order (0-1): how close a heard word is to the one meant. */
function similarity(a: string, b: string): number {
  const x = normal(a);
  const y = normal(b);
  if (!x || !y) return 0;
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...Array<number>(y.length).fill(0)]);
  for (let j = 1; j <= y.length; j++) d[0]![j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
  }
  return 1 - d[x.length]![y.length]! / Math.max(x.length, y.length);
}

/**
 * Approximate word scores (offline): the reference words aligned with the recognized ones by edit
 * distance. A word heard as itself scores by the recognizer's confidence (60-100); a word heard as
 * another scores below 60 by how alike they are (Mispronunciation); a word not heard is an
 * Omission (0); an extra word heard is an Insertion.
 */
export function alignApproximate(reference: string[], heard: { word: string; confidence: number }[]): ScoredWord[] {
  const n = reference.length;
  const m = heard.length;
  const cost: number[][] = Array.from({ length: n + 1 }, () => Array<number>(m + 1).fill(0));
  for (let i = 0; i <= n; i++) cost[i]![0] = i;
  for (let j = 0; j <= m; j++) cost[0]![j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const same = normal(reference[i - 1]!) === normal(heard[j - 1]!.word);
      cost[i]![j] = Math.min(cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1, cost[i - 1]![j - 1]! + (same ? 0 : 1 - similarity(reference[i - 1]!, heard[j - 1]!.word) * 0.5));
    }
  }
  const out: ScoredWord[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0) {
      const same = normal(reference[i - 1]!) === normal(heard[j - 1]!.word);
      const diag = cost[i - 1]![j - 1]! + (same ? 0 : 1 - similarity(reference[i - 1]!, heard[j - 1]!.word) * 0.5);
      if (Math.abs(cost[i]![j]! - diag) < 1e-9) {
        const h = heard[j - 1]!;
        out.push(
          same
            ? { word: reference[i - 1]!, accuracyScore: 60 + 40 * Math.max(0, Math.min(1, h.confidence)), errorType: 'None' }
            : { word: reference[i - 1]!, accuracyScore: 59 * similarity(reference[i - 1]!, h.word), errorType: 'Mispronunciation', actual: h.word },
        );
        i--;
        j--;
        continue;
      }
    }
    if (i > 0 && (j === 0 || Math.abs(cost[i]![j]! - (cost[i - 1]![j]! + 1)) < 1e-9)) {
      out.push({ word: reference[i - 1]!, accuracyScore: 0, errorType: 'Omission' });
      i--;
    } else {
      out.push({ word: heard[j - 1]!.word, accuracyScore: 0, errorType: 'Insertion' });
      j--;
    }
  }
  return out.reverse();
}
