// The excerpt admins read must be the part of the text that made the classifier flag it, not the
// text's start: a 4,000-character document window whose only harmful line is at its end would
// otherwise show benign opening paragraphs. Neither provider points at a span (both score a whole
// text), so the text is split into sentences and the flagged one is found:
// - the offline classifier takes microseconds a sentence, so every sentence is scored (then pairs
//   of neighbours, for a rule that spans a sentence break) and the highest score wins;
// - a remote model is not asked once per sentence: the text is halved at a sentence break and the
//   half that is still flagged kept, at most MAX_REMOTE_CALLS calls, until it fits an excerpt.
// The flagged sentence(s) are then widened by a sentence or two each side while they fit.
import { categoryFamily, type ModerationResult } from '../../ai/moderation/moderation-types';
import { cutIndex, headOf } from '../../../shared/text/cut';

export const EXCERPT_CHARS = 500;
/** A sentence longer than this (no punctuation) is scored in pieces, so a piece fits an excerpt. */
const UNIT_CHARS = 240;
/** Calls to a remote model to narrow one flagged text down (each halves it: a 4,200-character window to about 260). */
export const MAX_REMOTE_CALLS = 4;
/** Sentences of context kept on each side of the flagged ones, space permitting. */
const CONTEXT_UNITS = 2;

/** A sentence (or a piece of a long one): offsets into the text. */
interface Unit {
  start: number;
  end: number;
}

export interface ExcerptClassifier {
  classify(text: string): Promise<ModerationResult>;
  /** Cheap enough to score every sentence (the offline classifier); otherwise calls are bounded. */
  cheap: boolean;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The text's start, within the limit (a text with nothing flagged in it, e.g. a plain report). */
export function excerptOf(text: string): string {
  const f = flat(text);
  return f.length > EXCERPT_CHARS ? `${headOf(f, EXCERPT_CHARS - 1)}…` : f;
}

/** Sentences: broken after . ! ? … (and closing quotes) or at a line break; long ones in pieces. */
export function splitUnits(text: string): Unit[] {
  const units: Unit[] = [];
  const breaks = /(?<=[.!?…]["'”’)\]]*)\s+|\s*\n\s*/g;
  let start = 0;
  const push = (s: number, e: number) => {
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e <= s) return;
    // A long run without punctuation: pieces at spaces, so the flagged one is small.
    while (e - s > UNIT_CHARS) {
      const space = text.lastIndexOf(' ', s + UNIT_CHARS);
      const cut = space > s + UNIT_CHARS / 2 ? space : cutIndex(text, s + UNIT_CHARS);
      units.push({ start: s, end: cut });
      s = cut;
      while (s < e && /\s/.test(text[s]!)) s++;
    }
    if (e > s) units.push({ start: s, end: e });
  };
  for (const m of text.matchAll(breaks)) {
    push(start, m.index);
    start = m.index + m[0].length;
  }
  push(start, text.length);
  return units;
}

/** How strongly a text is flagged in the families the whole text was flagged for (0: not). */
function scoreIn(families: Set<string>, result: ModerationResult): number {
  return Math.max(0, ...result.categories.filter((c) => families.has(categoryFamily(c.type))).map((c) => c.confidence));
}

/** The flagged units [lo, hi): every sentence scored, then neighbouring pairs. */
async function scanUnits(text: string, units: Unit[], families: Set<string>, classifier: ExcerptClassifier): Promise<[number, number] | null> {
  for (const size of [1, 2]) {
    let best: [number, number] | null = null;
    let bestScore = 0;
    for (let i = 0; i + size <= units.length; i++) {
      const score = scoreIn(families, await classifier.classify(text.slice(units[i]!.start, units[i + size - 1]!.end)));
      if (score > bestScore) [best, bestScore] = [[i, i + size], score];
    }
    if (best) return best;
  }
  return null;
}

/** The flagged units [lo, hi) by halving: keep the first half when it is flagged alone, else the second. */
async function narrowUnits(text: string, units: Unit[], families: Set<string>, classifier: ExcerptClassifier): Promise<[number, number]> {
  let [lo, hi] = [0, units.length];
  for (let calls = 0; calls < MAX_REMOTE_CALLS && hi - lo > 1; calls++) {
    if (flat(text.slice(units[lo]!.start, units[hi - 1]!.end)).length <= EXCERPT_CHARS) break;
    // The sentence break nearest the middle of the span's characters.
    const middle = (units[lo]!.start + units[hi - 1]!.end) / 2;
    let mid = lo + 1;
    while (mid < hi - 1 && units[mid]!.start < middle) mid++;
    const firstHalf = scoreIn(families, await classifier.classify(text.slice(units[lo]!.start, units[mid - 1]!.end)));
    if (firstHalf > 0) hi = mid;
    else lo = mid;
  }
  return [lo, hi];
}

/** The flagged units with up to CONTEXT_UNITS neighbours each side, within EXCERPT_CHARS; … marks a cut. */
function excerptAround(text: string, units: Unit[], lo: number, hi: number): string {
  const body = (a: number, b: number) => flat(text.slice(units[a]!.start, units[b - 1]!.end));
  const marked = (a: number, b: number, s: string) => `${a > 0 ? '…' : ''}${s}${b < units.length ? '…' : ''}`;
  const core = body(lo, hi);
  if (marked(lo, hi, core).length > EXCERPT_CHARS) {
    // The flagged part alone is too long (a remote model narrowed as far as its calls allow).
    const room = EXCERPT_CHARS - (lo > 0 ? 1 : 0) - 1;
    return `${lo > 0 ? '…' : ''}${headOf(core, room)}…`;
  }
  let [a, b] = [lo, hi];
  for (let step = 0; step < CONTEXT_UNITS; step++) {
    if (a > 0 && marked(a - 1, b, body(a - 1, b)).length <= EXCERPT_CHARS) a--;
    if (b < units.length && marked(a, b + 1, body(a, b + 1)).length <= EXCERPT_CHARS) b++;
  }
  return marked(a, b, body(a, b));
}

/**
 * The excerpt of a flagged text: the part that made `verdict` flag it, with a little context.
 * A text that fits is kept whole; one with nothing flagged (a plain report) keeps its start.
 */
export async function flaggedExcerpt(text: string, verdict: ModerationResult, classifier: ExcerptClassifier): Promise<string> {
  const whole = flat(text);
  if (whole.length <= EXCERPT_CHARS) return whole;
  const families = new Set(verdict.categories.map((c) => categoryFamily(c.type)));
  const units = splitUnits(text);
  if (families.size === 0 || units.length === 0) return excerptOf(text);
  const span = (classifier.cheap ? await scanUnits(text, units, families, classifier) : null) ?? (await narrowUnits(text, units, families, classifier));
  return excerptAround(text, units, span[0], span[1]);
}
