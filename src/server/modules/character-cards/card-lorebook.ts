// The lorebook (character_book) as a knowledge document: one paragraph per enabled entry with
// content, opened by what the entry is about, its keys ("Eldoria (capital): The city sits...").
// SillyTavern shows an entry to the model when a key is mentioned, so the content often never
// repeats the key ("Tell me about Eldoria" must still find the entry whose keys are ["Eldoria"]):
// the keys put them in the searchable text. They open the entry's first sentence rather than a
// line of their own, because a short line without a stop reads as a heading, and a heading is
// never quoted: the sentence that names the key is the one a reply quotes and cites.
import type { CardBook, CardBookEntry } from '../../../shared/schemas/character-card';

/** The keys stay short: a few names, not a keyword dump. */
const KEYS_MAX = 200;

/** The lorebook entries that become passages: enabled, with content. */
export function knowledgeEntries(book: CardBook | null): CardBookEntry[] {
  return (book?.entries ?? []).filter((e) => e.enabled && e.content.trim() !== '');
}

/**
 * The knowledge document's text: one paragraph per entry, opened by its keys. Blank lines inside
 * an entry are folded to single line breaks, so the chunker never splits an entry at a paragraph
 * break (an entry longer than a chunk is split between sentences, like any long paragraph).
 */
export function lorebookText(book: CardBook | null): string {
  return knowledgeEntries(book)
    .map((e) => {
      const content = e.content.replace(/\n\s*\n+/g, '\n').trim();
      const about = keysLabel(e);
      return about ? `${about}: ${content}` : content;
    })
    .join('\n\n');
}

/**
 * "Eldoria (capital, the white city)": the entry's first key, then the others in brackets, as
 * written (each once, whatever its case); its name when it has no keys. Regular-expression keys
 * ("/eld(oria)?/i") are left out: they are not words anyone would ask about.
 */
export function keysLabel(entry: CardBookEntry): string {
  const seen = new Set<string>();
  const words: string[] = [];
  let length = 0;
  const candidates = entry.keys.length > 0 ? entry.keys : [entry.name ?? ''];
  for (const raw of candidates) {
    const key = raw.replace(/\s+/g, ' ').trim();
    if (!key || /^\/.+\/[a-z]*$/.test(key) || seen.has(key.toLowerCase())) continue;
    if (length + key.length + 2 > KEYS_MAX) break;
    seen.add(key.toLowerCase());
    words.push(key);
    length += key.length + 2;
  }
  const [first, ...others] = words;
  if (first === undefined) return '';
  return others.length > 0 ? `${first} (${others.join(', ')})` : first;
}
