// Text matching shared by retrieval and the offline responder: a question's content words (an
// English stopword list and the Porter stemmer, both kept libraries, not lists of our own), and
// sentence splitting. The sentences of a passage are split the same way when the document job
// embeds them and when a reply picks one, so a sentence's index means the same thing in both.
import { eng as ENGLISH_STOPWORDS } from 'stopword';
import { stemmer } from 'stemmer';

const STOPWORDS = new Set(ENGLISH_STOPWORDS);

/** The Porter stem of a word: enough for matching, not for display. */
export function stem(word: string): string {
  return stemmer(word.toLowerCase());
}

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word.toLowerCase().replace(/'.*$/, '')) || STOPWORDS.has(word.toLowerCase());
}

/** The question's content words as written (stop words dropped), in order, once each. */
export function contentWords(text: string): string[] {
  const out = new Set<string>();
  for (const w of words(text)) if (w.length >= 2 && !isStopword(w)) out.add(w);
  return [...out];
}

/**
 * Words a question names something by: capitalized content words that do not begin a sentence
 * ("Have you ever visited Japan?" -> ["Japan"]). A name the documents never mention is something
 * they cannot speak about, whatever else the question shares with them.
 */
export function namedWords(text: string): string[] {
  const out = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    const tokens = sentence.match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
    tokens.slice(1).forEach((w) => {
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
 * Sentences of a passage, trimmed, in order. Each line is split on its own (a heading, a date line
 * or a sign-off is a line, never glued to the sentence after it); very long runs are cut.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const parts = line
      .replace(/\s+/g, ' ')
      .split(/(?<=[.!?…]["'”’)\]]*)\s+(?=[\p{Lu}\p{N}"'“(])/u)
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    for (const p of parts) {
      if (p.length <= MAX_SENTENCE) out.push(p);
      else for (let i = 0; i < p.length; i += PIECE) out.push(p.slice(i, i + PIECE).trim());
    }
  }
  return out;
}

/** How many of `terms` appear in `text` (by stem). */
export function overlap(terms: string[], text: string): number {
  if (terms.length === 0) return 0;
  const have = new Set(words(text).map(stem));
  return terms.filter((t) => have.has(t)).length;
}
