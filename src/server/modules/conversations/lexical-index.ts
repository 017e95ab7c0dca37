// The full-text index of retrieval, in memory: for each document, which chunks hold each word.
// It is built from the database's own tsvectors, so a question's words, stemmed by the same
// to_tsvector('english'), meet the same lexemes the database indexed. Ranking in SQL read the row
// of every chunk that matched any word of every question (thousands, for common words, each read
// by PostgreSQL compiled to WebAssembly on the embedded default); here ranking is arithmetic over
// small arrays, and the database is asked only for the handful of chunks that won.
//
// Pure data and arithmetic: the SQL that loads and checks it is in retrieval.repository.ts, the
// orchestration in lexical-search.ts.

/** One document's postings, compact: sorted words, and for word i the chunk positions in
 * chunks[offsets[i] .. offsets[i + 1]). */
export interface DocumentPostings {
  generation: number;
  chunkCount: number;
  terms: string[];
  offsets: Int32Array;
  chunks: Int32Array;
}

/**
 * Parses the postings text the database builds (see loadPostings): one line per word, the word,
 * a space, and its chunk positions separated by commas, lines sorted by word in byte order.
 */
export function parsePostings(text: string, generation: number, chunkCount: number): DocumentPostings {
  const lines = text ? text.split('\n') : [];
  const terms: string[] = new Array(lines.length);
  const offsets = new Int32Array(lines.length + 1);
  let total = 0;
  const lists: string[] = new Array(lines.length);
  lines.forEach((line, i) => {
    const space = line.lastIndexOf(' ');
    terms[i] = line.slice(0, space);
    lists[i] = line.slice(space + 1);
    total += countCommas(lists[i]!) + 1;
  });
  const chunks = new Int32Array(total);
  let at = 0;
  lists.forEach((list, i) => {
    offsets[i] = at;
    for (const n of list.split(',')) chunks[at++] = Number(n);
  });
  offsets[lines.length] = at;
  // The database sorted by its collation; binary search needs JavaScript's order.
  if (!isSorted(terms)) return resort(terms, offsets, chunks, generation, chunkCount);
  return { generation, chunkCount, terms, offsets, chunks };
}

function countCommas(s: string): number {
  let n = 0;
  for (let i = s.indexOf(','); i !== -1; i = s.indexOf(',', i + 1)) n++;
  return n;
}

function isSorted(terms: string[]): boolean {
  for (let i = 1; i < terms.length; i++) if (terms[i - 1]! >= terms[i]!) return false;
  return true;
}

function resort(terms: string[], offsets: Int32Array, chunks: Int32Array, generation: number, chunkCount: number): DocumentPostings {
  const order = terms.map((_, i) => i).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
  const sortedOffsets = new Int32Array(terms.length + 1);
  const sortedChunks = new Int32Array(chunks.length);
  let at = 0;
  order.forEach((from, i) => {
    sortedOffsets[i] = at;
    sortedChunks.set(chunks.subarray(offsets[from]!, offsets[from + 1]!), at);
    at += offsets[from + 1]! - offsets[from]!;
  });
  sortedOffsets[terms.length] = at;
  return { generation, chunkCount, terms: order.map((i) => terms[i]!), offsets: sortedOffsets, chunks: sortedChunks };
}

/** The chunk positions of a document that hold `term`, or an empty list. */
export function chunksWith(doc: DocumentPostings, term: string): Int32Array {
  let lo = 0;
  let hi = doc.terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = doc.terms[mid]!;
    if (t === term) return doc.chunks.subarray(doc.offsets[mid]!, doc.offsets[mid + 1]!);
    if (t < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return EMPTY;
}
const EMPTY = new Int32Array(0);

/** Memory a document's postings hold, roughly, in bytes (for the cache's budget). */
export function postingsBytes(doc: DocumentPostings): number {
  let strings = 0;
  for (const t of doc.terms) strings += 24 + t.length;
  return strings + doc.offsets.byteLength + doc.chunks.byteLength + 200;
}

export interface Candidate {
  documentId: string;
  chunkIndex: number;
  /** Sum of the IDF of the question's words the chunk holds (rare words weigh more, as in BM25). */
  score: number;
  /** How many of the question's words the chunk holds. */
  matched: number;
}

/**
 * Scores every chunk holding any of `terms` across the documents the asker may use, and returns
 * the best `limit`. IDF counts over those documents only: what the asker may not use does not
 * shape their ranking. Ties go to the earlier document and chunk, so ranking is repeatable.
 */
export function rankCandidates(docs: { id: string; postings: DocumentPostings }[], terms: string[], limit: number): Candidate[] {
  let total = 0;
  for (const d of docs) total += d.postings.chunkCount;
  const lists = terms.map((term) => docs.map((d) => chunksWith(d.postings, term)));
  const df = lists.map((perDoc) => perDoc.reduce((n, list) => n + list.length, 0));
  total = Math.max(total, ...df, 1);
  // Keyed by document slot and chunk position in one number: no string per posting.
  const scores = new Map<number, Candidate>();
  lists.forEach((perDoc, t) => {
    if (df[t] === 0) return;
    const idf = Math.log((total + 1) / (df[t]! + 0.5));
    perDoc.forEach((list, d) => {
      const documentId = docs[d]!.id;
      for (let i = 0; i < list.length; i++) {
        const chunkIndex = list[i]!;
        const key = d * 0x100000000 + chunkIndex;
        const hit = scores.get(key);
        if (hit) {
          hit.score += idf;
          hit.matched++;
        } else scores.set(key, { documentId, chunkIndex, score: idf, matched: 1 });
      }
    });
  });
  return [...scores.values()].sort(byScore).slice(0, limit);
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : a.chunkIndex - b.chunkIndex);
}

/**
 * Postings of recently used documents, least recently used dropped first once they hold more
 * than `budgetBytes`. An entry is valid for one generation of its document's chunks.
 */
export class PostingsCache {
  private readonly entries = new Map<string, { postings: DocumentPostings; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(documentId: string, generation: number): DocumentPostings | undefined {
    const entry = this.entries.get(documentId);
    if (!entry) return undefined;
    if (entry.postings.generation !== generation) {
      this.delete(documentId);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(documentId);
    this.entries.set(documentId, entry);
    return entry.postings;
  }

  set(documentId: string, postings: DocumentPostings): void {
    this.delete(documentId);
    const bytes = postingsBytes(postings);
    if (bytes > this.budgetBytes) return;
    this.entries.set(documentId, { postings, bytes });
    this.bytes += bytes;
    for (const [id, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(id);
      this.bytes -= entry.bytes;
    }
  }

  delete(documentId: string): void {
    const entry = this.entries.get(documentId);
    if (!entry) return;
    this.entries.delete(documentId);
    this.bytes -= entry.bytes;
  }

  get size(): { documents: number; bytes: number } {
    return { documents: this.entries.size, bytes: this.bytes };
  }
}
