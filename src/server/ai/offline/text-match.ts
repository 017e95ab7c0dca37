// Text matching shared by retrieval and the offline responder: a question's content words (an
// English stopword list and the Porter stemmer, both kept libraries, not lists of our own), and
// sentence splitting. The sentences of a passage are split the same way when the document job
// embeds them and when a reply picks one, so a sentence's index means the same thing in both.
// Other scripts: a word keeps its combining marks (Devanagari vowel signs, Arabic vowels), text is
// compared in NFC (documents are stored NFC; a question may arrive decomposed), and Chinese and
// Japanese, written without spaces, are matched by overlapping pairs of characters.
import { eng as ENGLISH_STOPWORDS } from 'stopword';
import { stemmer } from 'stemmer';
import { cutIndex } from '../../../shared/text/cut';

const STOPWORDS = new Set(ENGLISH_STOPWORDS);

/** The Porter stem of a word: enough for matching, not for display. */
export function stem(word: string): string {
  return stemmer(word.toLowerCase());
}

/** A word as written: letters with their combining marks, digits, and an "'s"-like ending. */
const WORD = /[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}]+)?/gu;
/** Chinese and Japanese letters (kanji, kana, the prolonged sound mark): no spaces between words. */
const CJK_LETTER = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]/u;
/** A word split into its runs of Chinese/Japanese letters and the rest ("iphone手机" -> "iphone", "手机"). */
const CJK_RUNS = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]+|[^\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]+/gu;

/** The words of a text as written, in NFC, with Chinese/Japanese runs kept whole (marked `cjk`). */
function tokens(text: string): { text: string; cjk: boolean }[] {
  const found = text.normalize('NFC').match(WORD) ?? [];
  // Most text has no Chinese or Japanese at all: one test instead of one per word.
  if (!CJK_LETTER.test(text)) return found.map((t) => ({ text: t, cjk: false }));
  return found.flatMap((t) => (CJK_LETTER.test(t) ? (t.match(CJK_RUNS) ?? []).map((r) => ({ text: r, cjk: CJK_LETTER.test(r) })) : [{ text: t, cjk: false }]));
}

/**
 * Overlapping pairs of characters of a Chinese/Japanese run ("李白是谁" -> 李白 白是 是谁), the
 * character itself when alone: without a dictionary, the pairs are what two texts share when they
 * share a word (most words are one or two characters).
 */
function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  return chars.slice(1).map((c, i) => chars[i]! + c);
}

/** Whether a text has Chinese or Japanese in it (written without spaces between words). */
export function writtenWithoutSpaces(text: string): boolean {
  return CJK_LETTER.test(text);
}

/** The units texts are matched by: words, and pairs of characters of Chinese and Japanese. Lower case, NFC. */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  // Most text has no Chinese or Japanese: its words as matched, without an object per word (every
  // candidate passage is split for the near-duplicate check, so this is on the first token's path).
  if (!CJK_LETTER.test(lower)) return lower.normalize('NFC').match(WORD) ?? [];
  return tokens(lower).flatMap((t) => (t.cjk ? bigrams(t.text) : [t.text]));
}

/** Characters of a Chinese word, on average: a run of them counts as this many fewer words. */
const CJK_CHARS_PER_WORD = 1.5;

/** How many words a text has, a Chinese or Japanese run counted by its characters (see CJK_CHARS_PER_WORD). */
export function wordCount(text: string): number {
  return tokens(text).reduce((n, t) => n + (t.cjk ? Math.ceil([...t.text].length / CJK_CHARS_PER_WORD) : 1), 0);
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word.toLowerCase().replace(/'.*$/, '')) || STOPWORDS.has(word.toLowerCase());
}

/** The question's content words as written (stop words dropped), in order, once each. */
export function contentWords(text: string): string[] {
  const out = new Set<string>();
  // A single Chinese or Japanese character is a word (水, 茶); a single letter of other scripts is not.
  for (const w of words(text)) if ((w.length >= 2 || CJK_LETTER.test(w)) && !isStopword(w)) out.add(w);
  return [...out];
}

/**
 * Words a question names something by: capitalized content words that do not begin a sentence
 * ("Have you ever visited Japan?" -> ["Japan"]). A name the documents never mention is something
 * they cannot speak about, whatever else the question shares with them.
 */
export function namedWords(text: string): string[] {
  const out = new Set<string>();
  for (const sentence of text.normalize('NFC').split(/(?<=[.!?])\s+/)) {
    const found = sentence.match(WORD) ?? [];
    found.slice(1).forEach((w) => {
      if (/^\p{Lu}/u.test(w) && w !== 'I' && !/^I'/.test(w) && w.length >= 2 && !isStopword(w)) out.add(w);
    });
  }
  return [...out];
}

/** Distinct stems of the question's content words. */
export function contentTerms(text: string): string[] {
  return [...new Set(contentWords(text).map(stem))];
}

/** Longest sentence kept whole; a longer run without punctuation is cut into pieces. */
const MAX_SENTENCE = 400;
const PIECE = 300;

/**
 * Where a sentence ends, in any of four ways:
 * - a stop (. ! ? … and the Devanagari, Urdu, Arabic, Armenian, Ethiopic and Burmese ones), any
 *   closing quotes, a space, then what starts a sentence: a capital, a digit, a quote, or a letter
 *   of a script without capitals (Arabic, Hindi, Chinese...), so "e.g. this" stays whole;
 * - a Chinese/Japanese stop 。！？ (and fullwidth ．, not inside a number like ３．５), with the
 *   space after it if any, since none is written;
 * - directly after such a stop, unless a closing quote follows ("「本当？」と言った" is one sentence);
 * - after such a stop and its closing quotes, where a new quote opens.
 */
const SENTENCE_END = new RegExp(
  [
    /(?<=[.!?…।॥۔؟։።။]["'”’)\]»]*)\s+(?=[\p{Lu}\p{Lt}\p{Lo}\p{N}"'“(«])/u.source,
    /(?<=[。！？｡．][」』〉》”’）)\]]*)\s+/u.source,
    /(?<=[。！？｡．])(?![。！？｡．」』〉》”’）)\]\s])(?!(?<=．)\p{N})/u.source,
    /(?<=[。！？｡．][」』〉》”’）)\]]+)(?=[「『〈《“‘（(])/u.source,
  ].join('|'),
  'u',
);

/**
 * Sentences of a passage, trimmed, in order. Each line is split on its own (a heading, a date line
 * or a sign-off is a line, never glued to the sentence after it); very long runs are cut, between
 * characters (an emoji cut in half would be quoted as U+FFFD).
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const parts = line
      .replace(/\s+/g, ' ')
      .split(SENTENCE_END)
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    for (const p of parts) {
      if (p.length <= MAX_SENTENCE) out.push(p);
      else out.push(...pieces(p));
    }
  }
  return out;
}

/** A long run cut into pieces of PIECE characters at most, each ending between characters. */
function pieces(run: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < run.length; ) {
    const end = cutIndex(run, at + PIECE);
    const piece = run.slice(at, end).trim();
    if (piece) out.push(piece);
    at = end;
  }
  return out;
}

/** How many of `terms` appear in `text` (by stem). */
export function overlap(terms: string[], text: string): number {
  if (terms.length === 0) return 0;
  const have = new Set(words(text).map(stem));
  return terms.filter((t) => have.has(t)).length;
}
