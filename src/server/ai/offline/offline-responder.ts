// The embedded default responder: no language model, no network. It answers in the personality's
// name with a short window of its best passage (the sentence most similar to the question, by
// embedding when retrieval knows it, else by shared words, with its neighbours: two or three
// sentences, never a heading, a date line, a greeting or sign-off, a question line or a repeated
// sentence; for a question in Chinese or Japanese, which the embedded model cannot read, passage
// and sentence are the ones sharing most pairs of characters), cites it, and says plainly when its documents say nothing on the question (retrieval
// decides that and then hands over no passage). It only ever quotes the passage: nothing inside it
// (or the system prompt) is treated as an instruction, so it cannot be talked into revealing it.
import { DO_NOT_READ_CLOSE, DO_NOT_READ_OPEN } from '../../../shared/do-not-read';
import { referenceName } from '../../../shared/document-reference';
import { contentTerms, overlap, sentences, wordCount, words, writtenWithoutSpaces } from './text-match';

export interface OfflinePassage {
  fileName: string;
  chunkIndex: number;
  content: string;
  similarity: number;
  /** Index in sentences(content) of the sentence most similar to the question, when known. */
  bestSentence?: number;
  /** That sentence's cosine similarity with the question. */
  sentenceSimilarity?: number;
}

export interface OfflineReplyInput {
  personalityName: string;
  question: string;
  passages: OfflinePassage[];
}

const GREETING = /^(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening|day))\b/i;

export function declineReply(name: string): string {
  return `I'm ${name}, and my documents say nothing about that, so I would rather not guess. Ask me about something they cover.`;
}

export function composeOfflineReply(input: OfflineReplyInput): string {
  const name = input.personalityName;
  const terms = contentTerms(input.question);
  if ((terms.length === 0 && input.passages.length === 0) || (GREETING.test(input.question.trim()) && words(input.question).length <= 5)) {
    return `Hello! I'm ${name}. I answer from my own documents, so ask me about something they cover and I will tell you what they say.`;
  }
  const best = writtenWithoutSpaces(input.question) ? passageSharingMost(input.passages, terms) : answeringPassage(input.passages);
  const window = best ? replyWindow(best, terms) : [];
  if (window.length === 0) return declineReply(name);
  const intro = INTROS[hash(input.question) % INTROS.length]!(name);
  return `${intro}\n\n> ${window.join(' ')}\n\n${DO_NOT_READ_OPEN}(from ${referenceName(best!.fileName, best!.chunkIndex)})${DO_NOT_READ_CLOSE}`;
}

/** Passages the reply may quote from: the best few by ranking. */
const QUOTE_FROM = 5;
/** How much the closest sentence's similarity counts against the passage's score in that choice. */
const SENTENCE_WEIGHT = 0.5;

/**
 * The passage to quote: among the best few, the one whose closest sentence is closest to the
 * question (blended with the passage's own score), since the answer is a sentence, not a passage.
 * Without sentence similarities (no vectors), the best-ranked passage.
 */
function answeringPassage(passages: OfflinePassage[]): OfflinePassage | undefined {
  let best = passages[0];
  if (!best || best.sentenceSimilarity === undefined) return best;
  const value = (p: OfflinePassage) => (1 - SENTENCE_WEIGHT) * p.similarity + SENTENCE_WEIGHT * (p.sentenceSimilarity ?? 0);
  for (const p of passages.slice(1, QUOTE_FROM)) if (p.sentenceSimilarity !== undefined && value(p) > value(best)) best = p;
  return best;
}

/**
 * For a question in Chinese or Japanese: among the best few, the passage sharing most of its
 * character pairs (the earlier of equals), quoted around its sentence sharing most of them; none
 * (the reply declines) when no passage shares any. The embedded embedding model reads English, so
 * it gives every such text about the same vector: its ranking and its "closest sentence" neither
 * tell a Chinese passage from a Japanese one nor a question the documents answer from one they do not.
 */
function passageSharingMost(passages: OfflinePassage[], terms: string[]): OfflinePassage | undefined {
  let best: OfflinePassage | undefined;
  let most = 0;
  for (const p of passages.slice(0, QUOTE_FROM)) {
    const shared = overlap(terms, p.content);
    if (shared > most) [best, most] = [p, shared];
  }
  // Without the vectors' sentence: replyWindow centres on the sentence sharing most.
  return best && { fileName: best.fileName, chunkIndex: best.chunkIndex, content: best.content, similarity: best.similarity };
}

const INTROS: ((name: string) => string)[] = [
  (name) => `Speaking as ${name}, here is what my documents say about that:`,
  (name) => `I'm ${name}. Let me answer from my own words on the matter:`,
  (name) => `I'm ${name}, and here is what I can tell you about that, from what I have written:`,
];

/** Most sentences quoted, and the fewest when the passage has more to give. */
const WINDOW = 3;

/**
 * The sentences to quote from a passage: the one most similar to the question (by embedding when
 * known, else the most shared words) and its neighbours, two or three in all, only sentences that
 * say something. Empty when nothing in the passage speaks to the question.
 */
export function replyWindow(passage: OfflinePassage, terms: string[]): string[] {
  const all = sentences(passage.content);
  const seen = new Set<string>();
  // Sayable sentences keep their position; the rest break the window (it never spans a heading).
  const sayable = all.map((s) => {
    const text = s.replace(/^A:\s*/, '');
    const key = text.toLowerCase();
    if (!isSayable(text) || seen.has(key)) return undefined;
    seen.add(key);
    return text;
  });
  let center = passage.bestSentence !== undefined && sayable[passage.bestSentence] !== undefined ? passage.bestSentence : -1;
  if (center === -1) {
    let bestScore = 0;
    sayable.forEach((text, i) => {
      const score = text === undefined ? 0 : overlap(terms, text);
      if (score > bestScore) {
        bestScore = score;
        center = i;
      }
    });
    // Nothing shares a word with the question and vectors did not say which sentence: no answer here.
    if (center === -1) return passage.bestSentence === undefined ? [] : firstSayable(sayable);
  }
  let from = center;
  let to = center + 1;
  // Add the following sentence first (an answer often continues), then the one before.
  for (const step of [1, -1, 1]) {
    if (to - from >= WINDOW) break;
    if (step === 1 && sayable[to] !== undefined) to++;
    else if (step === -1 && from > 0 && sayable[from - 1] !== undefined) from--;
  }
  return sayable.slice(from, to) as string[];
}

function firstSayable(sayable: (string | undefined)[]): string[] {
  const i = sayable.findIndex((s) => s !== undefined);
  return i === -1 ? [] : (sayable.slice(i, i + 2).filter((s) => s !== undefined) as string[]);
}

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const DATE = `(\\d{1,2}(st|nd|rd|th)? (${MONTHS})|(${MONTHS}) \\d{1,2}(st|nd|rd|th)?),? \\d{4}`;
const DATE_LINE = new RegExp(
  // "3 October 1995", "Tobermory, 3 October 1995", "Diary, 2003", "12/01/2003"
  `^(\\p{L}[\\p{L} .'-]{0,30}, *)?${DATE}\\.?$|^\\p{L}[\\p{L} .'-]{0,30}, *((spring|summer|autumn|winter) )?\\d{4}\\.?$|^\\d{1,4}[-/.]\\d{1,2}[-/.]\\d{1,4}$`,
  'iu',
);
const SIGN_OFF = /^(with (love|best wishes|all my love)|love|yours( (ever|truly|sincerely|faithfully))?|best( wishes)?|kind regards|regards|sincerely|cheers|till next (time|year)|until next time|all the best|affectionately)\b[^.!?]{0,40}[,.!]?$/i;
const SALUTATION = /^(dear|my dear|dearest|hi|hello)\b[^.!?]{0,40},$/i;

/** For each of sentences(content): whether it says something (an interview's "A:" is not part of it). */
export function sayableSentences(content: string): boolean[] {
  return sentences(content).map(saysSomething);
}

/**
 * Of sentences(content), the one with the highest score (`scores[i]` for sentence i) that says
 * something, or -1. The same choice as taking the best among sayableSentences, but sentences are
 * tested best first, so usually one is: testing every sentence of ~60 candidates cost a question
 * ~5 ms, the largest part of ranking them.
 */
export function bestSayableSentence(content: string, scores: number[]): number {
  if (scores.length === 0) return -1;
  const all = sentences(content);
  const order = scores.map((_, i) => i).filter((i) => i < all.length);
  // A stable sort: of equal scores, the earlier sentence (as the full search chose).
  order.sort((a, b) => scores[b]! - scores[a]!);
  return order.find((i) => saysSomething(all[i]!)) ?? -1;
}

function saysSomething(sentence: string): boolean {
  return isSayable(sentence.replace(/^A:\s*/, ''));
}

/** How a sentence ends: . ! … and closing quotes, the Chinese/Japanese 。！ and brackets, the Devanagari and Urdu stops. */
const SENTENCE_END = /[.!…"'”)。！．｡」』）।॥۔]$/;
/** A question line: ? and its Chinese/Japanese and Arabic forms. */
const QUESTION_END = /[?？؟]$/;

/** A sentence that says something: not a heading, a date line, a greeting or sign-off, a name alone or a question. */
export function isSayable(sentence: string): boolean {
  const s = sentence.trim();
  if (s.length === 0 || /^#{1,6}\s/.test(s) || /^Q:/.test(s) || QUESTION_END.test(s)) return false;
  if (DATE_LINE.test(s) || SIGN_OFF.test(s) || SALUTATION.test(s)) return false;
  // Chinese and Japanese count by characters (wordCount), so a sentence of theirs is not "a few words".
  const count = wordCount(s);
  // A line of a few words without a sentence's end: a heading, a title, a signature.
  if (!SENTENCE_END.test(s) && count <= 8) return false;
  // A name or initial alone ("Mum", "M.", "Arthur.", "李白。").
  if (count <= 2) return false;
  return true;
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}

/** The reply says the documents hold nothing on the question (for the benchmark and tests). */
export function isDeclined(reply: string): boolean {
  return /hold nothing on that question|say nothing about that/.test(reply);
}

/** Splits a reply into words (keeping their trailing spaces) so it streams word by word. */
export function wordChunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}
