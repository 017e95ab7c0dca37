// A card's description longer than a personality's description may be: real SillyTavern cards
// often keep the whole character definition (4-12k characters) there. The description keeps its
// beginning, cut where a reader expects a stop (a paragraph, else a sentence, else a word), and
// the rest is carried into the behaviour instructions ("Description (continued)"), so the model
// still reads all of it and an export joins the two again.

export interface DescriptionParts {
  /** At most `max` characters, ending at a paragraph, sentence or word. */
  kept: string;
  /** The remainder, from the start of the next paragraph or sentence; empty when it all fits. */
  rest: string;
}

/** A cut earlier than this share of `max` wastes too much of the description: try a finer boundary. */
const MIN_SHARE = 0.5;

/** The space after a sentence's end (past closing quotes or brackets), or a line break. */
const SENTENCE_END = /(?<=[.!?\u2026]["'\u201D\u2019)\]]*)\s+|\n/g;

export function splitDescription(text: string, max: number): DescriptionParts {
  if (text.length <= max) return { kept: text, rest: '' };
  // Up to max + 1 characters: a separator right after the max-th character still counts.
  const window = text.slice(0, max + 1);
  const floor = Math.floor(max * MIN_SHARE);
  let end = lastBoundary(window, /\n\s*\n/g, floor) ?? lastBoundary(window, SENTENCE_END, floor) ?? lastBoundary(window, /\s+/g, floor) ?? max;
  // Never cut a surrogate pair in two.
  if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return { kept: text.slice(0, end).trimEnd(), rest: text.slice(end).trim() };
}

/** Where the last match of `separator` after `floor` starts: the kept text ends there. */
function lastBoundary(window: string, separator: RegExp, floor: number): number | undefined {
  let found: number | undefined;
  for (const m of window.matchAll(separator)) if (m.index > floor) found = m.index;
  return found;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
