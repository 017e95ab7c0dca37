// The library's search: every word typed must appear in the name or the description, ignoring
// case and accents ("zoe" finds "Zoë", "eloise" finds "Éloïse").
import type { Personality } from '../../../../shared/schemas/personality';

/** Lower case without accents (combining marks after canonical decomposition). */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a query, folded; none means the query matches everything. */
export function searchWords(query: string): string[] {
  return foldForSearch(query).split(/\s+/).filter(Boolean);
}

/** What a personality is searched by, folded once (a library of hundreds is searched per keystroke). */
export function searchText(personality: Pick<Personality, 'name' | 'description'>): string {
  return foldForSearch(`${personality.name}\n${personality.description ?? ''}`);
}

/** `folded` is searchText(...) of a personality; `words` are searchWords(query). */
export function textMatches(folded: string, words: readonly string[]): boolean {
  return words.every((w) => folded.includes(w));
}

export function matchesSearch(personality: Pick<Personality, 'name' | 'description'>, query: string): boolean {
  return textMatches(searchText(personality), searchWords(query));
}
