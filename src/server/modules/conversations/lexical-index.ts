// The full-text index of retrieval, in memory: for each document, which chunks hold each word.
// It is built from the database's own tsvectors, so a question's words, stemmed by the same
// to_tsvector('english'), meet the same lexemes the database indexed. Ranking in SQL read the row
// of every chunk that matched any word of every question (thousands, for common words, each read
// by PostgreSQL compiled to WebAssembly on the embedded default); here ranking is arithmetic over
// small arrays, and the database is asked only for the handful of chunks that won.
//
// Pure data and arithmetic: the SQL that loads and checks it is in retrieval.repository.ts, the
// orchestration in lexical-search.ts.

/** One document's postings, compact: sorted words, and for word i the chunk positions holding it
 * in chunks[offsets[i] .. offsets[i + 1]), with how often it occurs there in the same slots of tf.
 * Three bytes a (word, chunk) pair for a document under 65,536 chunks (positions in 16 bits, counts
 * capped at 255, where BM25's saturation makes larger counts score alike), so 100,000 chunks of
 * prose fit the cache's budget instead of evicting each other on every question. */
export interface DocumentPostings {
  generation: number;
  chunkCount: number;
  terms: string[];
  offsets: Int32Array;
  chunks: Uint16Array | Int32Array;
  tf: Uint8Array;
  /** Indexed words in each chunk position (stop words are not indexed), for BM25's length
   * normalization; one slot per position up to the highest seen. */
  lengths: Int32Array;
  totalLength: number;
}

/**
 * Parses the postings text the database builds (see loadPostings): one line per word, the word,
 * a space, and the chunks holding it separated by commas, each a position with ":count" when the
 * word occurs more than once there. Lines come sorted by word in byte order.
 */
export function parsePostings(text: string, generation: number, chunkCount: number): DocumentPostings {
  const lines = text ? text.split('\n') : [];
  const terms: string[] = new Array(lines.length);
  const lists: string[][] = new Array(lines.length);
  let total = 0;
  lines.forEach((line, i) => {
    const space = line.lastIndexOf(' ');
    terms[i] = line.slice(0, space);
    lists[i] = line.slice(space + 1).split(',');
    total += lists[i]!.length;
  });
  const offsets = new Int32Array(lines.length + 1);
  let slots = chunkCount;
  for (const list of lists) for (const entry of list) slots = Math.max(slots, parseInt(entry, 10) + 1);
  const chunks = positionsArray(slots, total);
  const tf = new Uint8Array(total);
  const lengths = new Int32Array(slots);
  let at = 0;
  let totalLength = 0;
  lists.forEach((list, i) => {
    offsets[i] = at;
    for (const entry of list) {
      const colon = entry.indexOf(':');
      const chunk = Number(colon === -1 ? entry : entry.slice(0, colon));
      const count = colon === -1 ? 1 : Number(entry.slice(colon + 1));
      chunks[at] = chunk;
      tf[at++] = Math.min(count, 0xff);
      lengths[chunk] += count;
      totalLength += count;
    }
  });
  offsets[lines.length] = at;
  const doc = { generation, chunkCount, terms, offsets, chunks, tf, lengths, totalLength };
  // The database sorted by its collation; binary search needs JavaScript's order.
  return isSorted(terms) ? doc : resort(doc);
}

/** 16-bit chunk positions when every position fits (a document under 65,536 chunks), else 32-bit. */
function positionsArray(slots: number, length: number): Uint16Array | Int32Array {
  return slots <= 0x10000 ? new Uint16Array(length) : new Int32Array(length);
}

function isSorted(terms: string[]): boolean {
  for (let i = 1; i < terms.length; i++) if (terms[i - 1]! >= terms[i]!) return false;
  return true;
}

function resort(doc: DocumentPostings): DocumentPostings {
  const { terms, offsets, chunks, tf } = doc;
  const order = terms.map((_, i) => i).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
  const sortedOffsets = new Int32Array(terms.length + 1);
  const sortedChunks = positionsArray(doc.lengths.length, chunks.length);
  const sortedTf = new Uint8Array(tf.length);
  let at = 0;
  order.forEach((from, i) => {
    sortedOffsets[i] = at;
    sortedChunks.set(chunks.subarray(offsets[from]!, offsets[from + 1]!), at);
    sortedTf.set(tf.subarray(offsets[from]!, offsets[from + 1]!), at);
    at += offsets[from + 1]! - offsets[from]!;
  });
  sortedOffsets[terms.length] = at;
  return { ...doc, terms: order.map((i) => terms[i]!), offsets: sortedOffsets, chunks: sortedChunks, tf: sortedTf };
}

/** Where a word's postings are in a document: [start, end) into chunks and tf, empty when absent. */
export function postingsOf(doc: DocumentPostings, term: string): [number, number] {
  let lo = 0;
  let hi = doc.terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = doc.terms[mid]!;
    if (t === term) return [doc.offsets[mid]!, doc.offsets[mid + 1]!];
    if (t < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return [0, 0];
}

/** Memory a document's postings hold, roughly, in bytes (for the cache's budget). */
export function postingsBytes(doc: DocumentPostings): number {
  let strings = 0;
  for (const t of doc.terms) strings += 24 + t.length;
  return strings + doc.offsets.byteLength + doc.chunks.byteLength + doc.tf.byteLength + doc.lengths.byteLength + 300;
}

export interface Candidate {
  documentId: string;
  chunkIndex: number;
  /** BM25 relevance of the chunk to the question. */
  score: number;
  /** How many of the question's words the chunk holds. */
  matched: number;
}

/** BM25's usual constants: term-frequency saturation and length normalization. */
const K1 = 1.2;
const B = 0.75;

/**
 * Scores every chunk holding any of `terms` across the documents the asker may use with BM25, and
 * returns the best `limit`. Statistics (how many chunks hold a word, the average chunk length)
 * count those documents only: what the asker may not use does not shape their ranking. Ties go to
 * the earlier document and chunk, so ranking is repeatable.
 */
export function rankCandidates(docs: { id: string; postings: DocumentPostings }[], terms: string[], limit: number): Candidate[] {
  if (limit <= 0) return [];
  let chunkTotal = 0;
  let lengthTotal = 0;
  for (const d of docs) {
    chunkTotal += d.postings.chunkCount;
    lengthTotal += d.postings.totalLength;
  }
  const avgLength = lengthTotal / Math.max(chunkTotal, 1) || 1;
  const ranges = terms.map((term) => docs.map((d) => postingsOf(d.postings, term)));
  const df = ranges.map((perDoc) => perDoc.reduce((n, [start, end]) => n + end - start, 0));
  const n = Math.max(chunkTotal, ...df, 1);
  // Scores in one dense array per document (allocated when it has a hit), and the hits in order.
  const scores: (Float64Array | undefined)[] = new Array(docs.length);
  const matched: (Uint8Array | undefined)[] = new Array(docs.length);
  const hitDoc: number[] = [];
  const hitChunk: number[] = [];
  ranges.forEach((perDoc, t) => {
    if (df[t] === 0) return;
    const idf = Math.log(1 + (n - df[t]! + 0.5) / (df[t]! + 0.5));
    perDoc.forEach(([start, end], d) => {
      if (start === end) return;
      const { postings } = docs[d]!;
      const docScores = (scores[d] ??= new Float64Array(postings.lengths.length));
      const docMatched = (matched[d] ??= new Uint8Array(postings.lengths.length));
      for (let i = start; i < end; i++) {
        const chunk = postings.chunks[i]!;
        const tf = postings.tf[i]!;
        const norm = K1 * (1 - B + (B * postings.lengths[chunk]!) / avgLength);
        if (docMatched[chunk] === 0) {
          hitDoc.push(d);
          hitChunk.push(chunk);
        }
        docScores[chunk] += (idf * tf * (K1 + 1)) / (tf + norm);
        docMatched[chunk]++;
      }
    });
  });
  // The best `limit`, kept sorted while scanning (limit is small; the hits are thousands).
  const best: Candidate[] = [];
  for (let h = 0; h < hitDoc.length; h++) {
    const d = hitDoc[h]!;
    const chunkIndex = hitChunk[h]!;
    const candidate = { documentId: docs[d]!.id, chunkIndex, score: scores[d]![chunkIndex]!, matched: matched[d]![chunkIndex]! };
    if (best.length === limit && byScore(candidate, best[limit - 1]!) >= 0) continue;
    let at = best.length === limit ? limit - 1 : best.length;
    while (at > 0 && byScore(candidate, best[at - 1]!) < 0) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = candidate;
  }
  return best;
}

/**
 * What the ranking's scores are measured against: the highest BM25 a chunk could reach for these
 * terms (each word's idf times BM25's saturation bound k1 + 1, over the words the documents hold),
 * and how many of the terms occur nowhere in the documents (the sign of a question they cannot
 * answer). Same statistics as rankCandidates.
 */
export function queryStats(docs: { id: string; postings: DocumentPostings }[], terms: string[]): { ceiling: number; absent: number } {
  let chunkTotal = 0;
  for (const d of docs) chunkTotal += d.postings.chunkCount;
  const df = terms.map((term) => docs.reduce((n, d) => {
    const [start, end] = postingsOf(d.postings, term);
    return n + end - start;
  }, 0));
  const n = Math.max(chunkTotal, ...df, 1);
  let ceiling = 0;
  let absent = 0;
  df.forEach((f) => {
    if (f === 0) absent++;
    else ceiling += Math.log(1 + (n - f + 0.5) / (f + 0.5)) * (K1 + 1);
  });
  return { ceiling, absent };
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : a.chunkIndex - b.chunkIndex);
}

/**
 * Postings of recently used documents, least recently used dropped first once they hold more
 * than `budgetBytes`. An entry is valid for one generation of its document's chunks. A question
 * over more postings than the budget must not evict what it has just used (`keep`): plain LRU
 * over a library read in the same order each time would drop every document before its next
 * use, and every question would reload them all. What does not fit is read for that question
 * and not kept.
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

  set(documentId: string, postings: DocumentPostings, keep: ReadonlySet<string> = new Set()): void {
    this.delete(documentId);
    const bytes = postingsBytes(postings);
    if (bytes > this.budgetBytes) return;
    // Least recently used first, skipping what the current question holds; no room: not kept.
    let freeable = 0;
    for (const [id, entry] of this.entries) if (!keep.has(id)) freeable += entry.bytes;
    if (this.bytes + bytes - freeable > this.budgetBytes) return;
    for (const [id, entry] of this.entries) {
      if (this.bytes + bytes <= this.budgetBytes) break;
      if (keep.has(id)) continue;
      this.entries.delete(id);
      this.bytes -= entry.bytes;
    }
    this.entries.set(documentId, { postings, bytes });
    this.bytes += bytes;
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
