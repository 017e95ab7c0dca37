// Names in the order a person reads them, the same on the server (the library) and in the browser
// (the admin's "A-Z Order"): accents sort with their letter ("Élodie" beside "Elena", not after
// "zebra"), case is ignored, numbers count ("Agent 9" before "Agent 10"), and scripts follow the
// Unicode root order. The database's own order is by code point, which puts every accented or
// non-Latin name after Z, so names are ordered here rather than in SQL.
const collator = new Intl.Collator('und', { sensitivity: 'base', numeric: true });

/** Compares two names; names equal to the collator fall back to code points, so the order is total. */
export function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
