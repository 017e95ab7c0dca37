// Small, dependency-free text matching for the offline responder: content words of a question,
// a crude stem so "engines" meets "engine", and sentence splitting.
const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her hers him his how i if in into ' +
    'is it its just me my myself no not of on or our ours out over she should so some than that the their theirs them then there these they ' +
    'this those through to too under up very was we were what when where which while who whom why will with would you your yours yourself ' +
    'tell about please know think say said says ever really much many any also more most like get got us let'
  ).split(' '),
);

/** A crude English stem: enough for matching, not for display. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const suffix of ['ingly', 'edly', 'ing', 'ies', 'ied', 'ed', 'es', 's', 'ly']) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length) + (suffix === 'ies' || suffix === 'ied' ? 'y' : '');
      break;
    }
  }
  return w;
}

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

/** Distinct stems of the question's content words. */
export function contentTerms(text: string): string[] {
  const out = new Set<string>();
  for (const w of words(text)) {
    if (w.length < 2 || STOPWORDS.has(w)) continue;
    out.add(stem(w));
  }
  return [...out];
}

/** Sentences of a passage, trimmed; very long runs without punctuation are cut at ~300 chars. */
export function sentences(text: string): string[] {
  const parts = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'“(])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const out: string[] = [];
  for (const p of parts) {
    if (p.length <= 400) out.push(p);
    else for (let i = 0; i < p.length; i += 300) out.push(`${p.slice(i, i + 300).trim()}${i + 300 < p.length ? '…' : ''}`);
  }
  return out;
}

/** How many of `terms` appear in `text` (by stem). */
export function overlap(terms: string[], text: string): number {
  if (terms.length === 0) return 0;
  const have = new Set(words(text).map(stem));
  return terms.filter((t) => have.has(t)).length;
}
