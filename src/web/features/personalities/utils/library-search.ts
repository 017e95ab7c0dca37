// The library's search: every word typed must appear in the name or the description, ignoring
// case and accents ("zoe" finds "Zoë", "eloise" finds "Éloïse").
import type { Personality } from '../../../../shared/schemas/personality';

/** Lower case without accents (combining marks after canonical decomposition). */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function matchesSearch(personality: Pick<Personality, 'name' | 'description'>, query: string): boolean {
  const words = foldForSearch(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = foldForSearch(`${personality.name}\n${personality.description ?? ''}`);
  return words.every((w) => haystack.includes(w));
}
