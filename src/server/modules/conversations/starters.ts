// Four conversation starters and the greeting, derived from the personality's name, description
// and (public) document titles. No model needed, deterministic, cached with the prompt context.
import { contentTerms, words } from '../../ai/offline/text-match';

export interface StarterSource {
  name: string;
  description: string | null;
  documentTitles: string[];
}

export const STARTER_COUNT = 4;

export function buildGreeting(name: string): string {
  return `Hello! I'm ${name}. What would you like to talk about?`;
}

export function buildStarters(src: StarterSource): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    if (out.length < STARTER_COUNT && !out.some((o) => o.toLowerCase() === s.toLowerCase())) out.push(s);
  };
  add(`Tell me about yourself, ${firstName(src.name)}.`);
  for (const title of src.documentTitles.map(cleanTitle).filter((t) => t.length >= 3).slice(0, 2)) {
    add(`What can you tell me about "${title}"?`);
  }
  const topics = keyTopics(src.description ?? '', src.name);
  // Quoted: the word may be any part of speech, and the question still reads well.
  if (topics[0]) add(`What does "${topics[0]}" mean to you?`);
  if (topics[1]) add(`Tell me more about "${topics[1]}".`);
  for (const generic of [
    'What are you most proud of?',
    'What advice would you give me?',
    'What was the hardest moment of your life?',
    'What do you wish more people understood about you?',
  ]) {
    add(generic);
  }
  return out;
}

function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}

/** "ada_notes-1843.txt" -> "ada notes 1843". */
function cleanTitle(fileName: string): string {
  return fileName
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60);
}

/** The description's most repeated long content words (original spelling), not the name's. */
function keyTopics(description: string, name: string): string[] {
  const nameWords = new Set(words(name));
  const counts = new Map<string, { word: string; n: number; first: number }>();
  words(description).forEach((w, i) => {
    if (w.length < 5 || nameWords.has(w) || contentTerms(w).length === 0) return;
    const e = counts.get(w) ?? { word: w, n: 0, first: i };
    e.n++;
    counts.set(w, e);
  });
  return [...counts.values()].sort((a, b) => b.n - a.n || a.first - b.first).map((e) => e.word);
}
