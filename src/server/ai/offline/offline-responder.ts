// The embedded default responder: no language model, no network. It answers in the personality's
// name from the sentences of its best-matching passages, cites them, and says plainly when its
// documents hold nothing on the question. It only ever quotes the passages: nothing inside them
// (or the system prompt) is treated as an instruction, so it cannot be talked into revealing it.
import { DO_NOT_READ_CLOSE, DO_NOT_READ_OPEN } from '../../../shared/do-not-read';
import { referenceName } from '../../../shared/document-reference';
import { contentTerms, overlap, sentences, words } from './text-match';

export interface OfflinePassage {
  fileName: string;
  chunkIndex: number;
  content: string;
  similarity: number;
}

export interface OfflineReplyInput {
  personalityName: string;
  question: string;
  passages: OfflinePassage[];
}

const MAX_SENTENCES = 3;
const GREETING = /^(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening|day))\b/i;

export function composeOfflineReply(input: OfflineReplyInput): string {
  const name = input.personalityName;
  const terms = contentTerms(input.question);
  if (terms.length === 0 || (GREETING.test(input.question.trim()) && words(input.question).length <= 5)) {
    return `Hello! I'm ${name}. I answer from my own documents, so ask me about something they cover and I will tell you what they say.`;
  }
  const picked = pickSentences(terms, input.passages);
  if (picked.length === 0) {
    return `I'm ${name}, and my documents hold nothing on that question, so I would rather not guess. Ask me about something they cover.`;
  }
  const intro = INTROS[hash(input.question) % INTROS.length]!(name);
  const body = groupBySource(picked)
    .map((g) => `> ${g.sentences.join(' ')}\n\n${DO_NOT_READ_OPEN}(from ${g.label})${DO_NOT_READ_CLOSE}`)
    .join('\n\n');
  return `${intro}\n\n${body}`;
}

const INTROS: ((name: string) => string)[] = [
  (name) => `Speaking as ${name}, here is what my documents say about that:`,
  () => `Let me answer from my own words on the matter:`,
  () => `Here is what I can tell you about that, from what I have written:`,
];

interface Picked {
  passageRank: number;
  sentenceIndex: number;
  text: string;
  label: string;
  score: number;
}

/** The sentences holding most of the question's words, best passages first; ties keep order. */
function pickSentences(terms: string[], passages: OfflinePassage[]): Picked[] {
  const candidates: Picked[] = [];
  passages.forEach((p, passageRank) => {
    sentences(p.content).forEach((text, sentenceIndex) => {
      const score = overlap(terms, text);
      if (score > 0) candidates.push({ passageRank, sentenceIndex, text, label: referenceName(p.fileName, p.chunkIndex), score });
    });
  });
  const best = Math.max(0, ...candidates.map((c) => c.score));
  // A sentence sharing one stray word with a many-word question is not an answer.
  const floor = terms.length >= 3 ? Math.max(1, Math.ceil(best / 2)) : 1;
  return candidates
    .filter((c) => c.score >= floor)
    .sort((a, b) => b.score - a.score || a.passageRank - b.passageRank || a.sentenceIndex - b.sentenceIndex)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.passageRank - b.passageRank || a.sentenceIndex - b.sentenceIndex);
}

function groupBySource(picked: Picked[]): { label: string; sentences: string[] }[] {
  const groups: { label: string; sentences: string[] }[] = [];
  for (const p of picked) {
    const last = groups[groups.length - 1];
    if (last && last.label === p.label) last.sentences.push(p.text);
    else groups.push({ label: p.label, sentences: [p.text] });
  }
  return groups;
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}

/** Splits a reply into words (keeping their trailing spaces) so it streams word by word. */
export function wordChunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}
