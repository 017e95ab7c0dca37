// Cutting text to a length (a title, an excerpt, a piece of a long sentence) at a place a reader
// would call a character: a cut by UTF-16 position can split an emoji's surrogate pair (saved as
// U+FFFD, "li� �"), a family joined by ZWJ, a flag or a letter and its accent.
// Only a short window before the limit is segmented, so a cut costs the same on a 10 MB text.

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * How far back from the limit a grapheme boundary is looked for. Real graphemes are far shorter
 * (the longest emoji ZWJ sequences are about a dozen code units); a longer run of combining marks
 * is cut at a code point instead.
 */
const LOOK_BEHIND = 64;
/** A boundary depends on the character after it (a combining mark, a ZWJ, an emoji's second half). */
const LOOK_AHEAD = 4;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** The largest index <= `max` at which `text` may be cut without splitting a grapheme. */
export function cutIndex(text: string, max: number): number {
  if (max >= text.length) return text.length;
  if (max <= 0) return 0;
  const from = Math.max(0, max - LOOK_BEHIND);
  let boundary = -1;
  for (const { index } of graphemes.segment(text.slice(from, max + LOOK_AHEAD))) {
    if (from + index > max) break;
    boundary = from + index;
  }
  // The window's own start is only a boundary when it is the text's start.
  if (boundary > from || from === 0) return boundary;
  // One grapheme longer than the window (a pile of combining marks): at least keep code points whole.
  return isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
}

/** The start of `text`, at most `max` UTF-16 units, ending at a grapheme boundary. */
export function headOf(text: string, max: number): string {
  return text.slice(0, cutIndex(text, max));
}

/** How far back a sentence's or a word's end is looked for. */
const WORD_LOOK_BEHIND = 300;

/**
 * The start of `text`, at most `max` UTF-16 units, ending after a sentence's end or, failing one in
 * the last few hundred units, at a word's end (what is spoken stops where a listener expects); a
 * text with no such place nearby (one long word, or Chinese without spaces) at a grapheme boundary.
 */
export function headAtWord(text: string, max: number): string {
  const head = headOf(text, max);
  if (head.length === text.length) return head;
  const window = head.slice(-WORD_LOOK_BEHIND);
  const offset = head.length - window.length;
  const sentence = Math.max(...['. ', '! ', '? ', '\n'].map((end) => window.lastIndexOf(end)));
  if (sentence > 0) return head.slice(0, offset + sentence + 1).trimEnd();
  // A word ends where a space begins (the cut's own place counts when the text goes on with one).
  const space = /\s/.test(text[head.length] ?? '') ? window.length : window.search(/\s\S*$/);
  return space > 0 ? head.slice(0, offset + space).trimEnd() : head;
}

/** `text` when it fits in `max`; else its start and "…", `max` units at most. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${headOf(text, max - 1).trimEnd()}…`;
}
