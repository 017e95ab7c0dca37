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
  /** The words' hashes (termHash), ascending, and at the same place the word's index in terms:
   * a question's word is hashed once and found in every document by comparing numbers (a binary
   * search over strings cost ~0.6 µs per word and document, most of a question over 100). */
  hashes: Uint32Array;
  hashTerms: Int32Array;
  offsets: Int32Array;
  chunks: Uint16Array | Int32Array;
  tf: Uint8Array;
  /** Indexed words in each chunk position (stop words are not indexed), for BM25's length
   * normalization; one slot per position up to the highest seen. */
  lengths: Int32Array;
  totalLength: number;
}

/**
 * Builds a document's postings from its chunks' tsvectors as the database writes them (see
 * loadPostings): one line per chunk, its position, a space, then its tsvector's text
 * (`'word':1,5A 'it''s':3`: each word quoted, a quote or backslash in it doubled, its positions
 * after a colon, a weight letter possibly after each). A word's count in a chunk is its number of
 * positions (1 when none are kept). Lines come in chunk order, so each word's chunks do too.
 * Reading the vectors whole and inverting them here costs the database a tenth of what grouping
 * them by word in SQL did (~50 ms against ~590 per 1,000 chunks on PGlite, whose one thread every
 * other statement waits for).
 */
export function parsePostings(text: string, generation: number, chunkCount: number): DocumentPostings {
  // Word -> its chunks and counts, interleaved: [chunk, count, chunk, count, ...].
  const byWord = new Map<string, number[]>();
  let slots = chunkCount;
  let pairs = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const newline = text.indexOf('\n', i);
    const lineEnd = newline === -1 ? n : newline;
    const space = text.indexOf(' ', i);
    const chunk = space === -1 || space > lineEnd ? NaN : Number(text.slice(i, space));
    if (!Number.isInteger(chunk) || chunk < 0) {
      // Not a line this format has: skipped.
      i = lineEnd + 1;
      continue;
    }
    i = space + 1;
    slots = Math.max(slots, chunk + 1);
    while (i < n && text.charCodeAt(i) !== NEWLINE) {
      if (text.charCodeAt(i) !== QUOTE) {
        i++; // the space between entries
        continue;
      }
      const word = readQuoted(text, i + 1);
      i = word.end;
      let count = 1;
      if (text.charCodeAt(i) === COLON) {
        for (i++; i < n; i++) {
          const c = text.charCodeAt(i);
          if (c === COMMA) count++;
          else if (c === SPACE || c === NEWLINE) break;
        }
      }
      // A word with a line break in it cannot be a question's word (questions are split on them).
      if (word.text.includes('\n')) continue;
      let list = byWord.get(word.text);
      if (!list) byWord.set(word.text, (list = []));
      list.push(chunk, count);
      pairs++;
    }
    i++; // the line break
  }
  const terms = [...byWord.keys()].sort();
  const offsets = new Int32Array(terms.length + 1);
  const chunks = positionsArray(slots, pairs);
  const tf = new Uint8Array(pairs);
  const lengths = new Int32Array(slots);
  let at = 0;
  let totalLength = 0;
  terms.forEach((term, t) => {
    offsets[t] = at;
    const list = byWord.get(term)!;
    for (let k = 0; k < list.length; k += 2) {
      const chunk = list[k]!;
      const count = list[k + 1]!;
      chunks[at] = chunk;
      tf[at++] = Math.min(count, 0xff);
      lengths[chunk] += count;
      totalLength += count;
    }
  });
  offsets[terms.length] = at;
  return { generation, chunkCount, terms, ...hashIndex(terms), offsets, chunks, tf, lengths, totalLength };
}

const NEWLINE = 10;
const SPACE = 32;
const QUOTE = 39;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;

/** A quoted tsvector word starting at `from` (after its opening quote): its text, and where its closing quote ends. */
function readQuoted(text: string, from: number): { text: string; end: number } {
  let out = '';
  let start = from;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== QUOTE && c !== BACKSLASH) continue;
    // A doubled quote or backslash stands for one.
    if (text.charCodeAt(i + 1) === c) {
      out += text.slice(start, i + 1);
      i++;
      start = i + 1;
      continue;
    }
    if (c === QUOTE) return { text: out + text.slice(start, i), end: i + 1 };
  }
  return { text: out + text.slice(start), end: text.length };
}

/** FNV-1a over the word's UTF-16 code units: a 32-bit number to find the word by. */
export function termHash(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hashIndex(terms: string[]): { hashes: Uint32Array; hashTerms: Int32Array } {
  const own = new Uint32Array(terms.length);
  for (let i = 0; i < terms.length; i++) own[i] = termHash(terms[i]!);
  const hashTerms = new Int32Array(terms.length);
  for (let i = 0; i < terms.length; i++) hashTerms[i] = i;
  hashTerms.sort((a, b) => own[a]! - own[b]!);
  const hashes = new Uint32Array(terms.length);
  for (let i = 0; i < terms.length; i++) hashes[i] = own[hashTerms[i]!]!;
  return { hashes, hashTerms };
}

/** 16-bit chunk positions when every position fits (a document under 65,536 chunks), else 32-bit. */
function positionsArray(slots: number, length: number): Uint16Array | Int32Array {
  return slots <= 0x10000 ? new Uint16Array(length) : new Int32Array(length);
}

/** Where a word's postings are in a document: [start, end) into chunks and tf, empty when absent.
 * `hash`: termHash(term), when the caller looks the same word up in many documents. */
export function postingsOf(doc: DocumentPostings, term: string, hash = termHash(term)): [number, number] {
  const { hashes } = doc;
  let lo = 0;
  let hi = hashes.length;
  // The first place holding `hash`; words sharing a hash (rare) sit side by side from there.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hashes[mid]! < hash) lo = mid + 1;
    else hi = mid;
  }
  for (let at = lo; at < hashes.length && hashes[at] === hash; at++) {
    const i = doc.hashTerms[at]!;
    if (doc.terms[i] === term) return [doc.offsets[i]!, doc.offsets[i + 1]!];
  }
  return [0, 0];
}

/** Memory a document's postings hold, roughly, in bytes (for the cache's budget). */
export function postingsBytes(doc: DocumentPostings): number {
  let strings = 0;
  for (const t of doc.terms) strings += 24 + t.length;
  return strings + doc.hashes.byteLength + doc.hashTerms.byteLength + doc.offsets.byteLength + doc.chunks.byteLength + doc.tf.byteLength + doc.lengths.byteLength + 300;
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

/** Where each of the question's words is in each document, and the statistics BM25 counts over
 * those documents: found once per question (ranking and the ceiling both need them). */
export interface TermLookup {
  /** ranges[t][d]: word t's postings in document d, [start, end), empty when absent. */
  ranges: [number, number][][];
  /** How many chunks of the given documents hold each word. */
  df: number[];
  /** The chunks counted for idf (never fewer than a word's df, nor 0). */
  n: number;
  /** The average chunk length in indexed words (1 for documents without any). */
  avgLength: number;
}

export function lookUpTerms(docs: { postings: DocumentPostings }[], terms: string[]): TermLookup {
  let chunkTotal = 0;
  let lengthTotal = 0;
  for (const d of docs) {
    chunkTotal += d.postings.chunkCount;
    lengthTotal += d.postings.totalLength;
  }
  const ranges = terms.map((term) => {
    const hash = termHash(term);
    return docs.map((d) => postingsOf(d.postings, term, hash));
  });
  const df = ranges.map((perDoc) => perDoc.reduce((n, [start, end]) => n + end - start, 0));
  return { ranges, df, n: Math.max(chunkTotal, ...df, 1), avgLength: lengthTotal / Math.max(chunkTotal, 1) || 1 };
}

/** BM25's idf of a word held by `df` of `n` chunks. */
function idfOf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** Scratch space reused by every ranking (one question ranks at a time on this thread): a
 * question over 100 documents allocated 200 small arrays and an object per matching chunk. */
let scratchScores = new Float64Array(0);
let scratchMatched = new Uint8Array(0);
let scratchHits = new Int32Array(0);

/**
 * Scores every chunk holding any of `terms` across the documents the asker may use with BM25, and
 * returns the best `limit`. Statistics (how many chunks hold a word, the average chunk length)
 * count those documents only: what the asker may not use does not shape their ranking. Ties go to
 * the earlier document and chunk, so ranking is repeatable.
 */
export function rankCandidates(
  docs: { id: string; postings: DocumentPostings }[],
  terms: string[],
  limit: number,
  looked: TermLookup = lookUpTerms(docs, terms),
): Candidate[] {
  if (limit <= 0) return [];
  const { ranges, df, n, avgLength } = looked;
  // Every document's chunk positions in one run of slots: document d's chunk c is base[d] + c.
  const base = new Int32Array(docs.length + 1);
  for (let d = 0; d < docs.length; d++) base[d + 1] = base[d]! + docs[d]!.postings.lengths.length;
  const slots = base[docs.length]!;
  if (scratchScores.length < slots) {
    scratchScores = new Float64Array(slots);
    scratchMatched = new Uint8Array(slots);
  }
  let hitCount = 0;
  for (let t = 0; t < ranges.length; t++) if (df[t]! > 0) hitCount += df[t]!;
  if (scratchHits.length < hitCount) scratchHits = new Int32Array(hitCount);
  const scores = scratchScores;
  const matched = scratchMatched;
  const hits = scratchHits;
  let hitTotal = 0;
  for (let t = 0; t < ranges.length; t++) {
    if (df[t] === 0) continue;
    const idf = idfOf(n, df[t]!);
    const perDoc = ranges[t]!;
    for (let d = 0; d < perDoc.length; d++) {
      const [start, end] = perDoc[d]!;
      if (start === end) continue;
      const { chunks, tf: tfs, lengths } = docs[d]!.postings;
      const from = base[d]!;
      for (let i = start; i < end; i++) {
        const chunk = chunks[i]!;
        const slot = from + chunk;
        const tf = tfs[i]!;
        const norm = K1 * (1 - B + (B * lengths[chunk]!) / avgLength);
        if (matched[slot] === 0) hits[hitTotal++] = slot;
        scores[slot] += (idf * tf * (K1 + 1)) / (tf + norm);
        matched[slot]++;
      }
    }
  }
  // The best `limit`, kept sorted while scanning (limit is small; the hits are thousands): a hit
  // below the worst kept is skipped on its score alone, before anything is made for it.
  const best: Candidate[] = [];
  let d = 0;
  for (let h = 0; h < hitTotal; h++) {
    const slot = hits[h]!;
    const score = scores[slot]!;
    if (best.length === limit && score < best[limit - 1]!.score) continue;
    // The document holding this slot (hits are grouped by word, not by document: search).
    if (slot < base[d]! || slot >= base[d + 1]!) d = documentOfSlot(base, slot);
    const candidate = { documentId: docs[d]!.id, chunkIndex: slot - base[d]!, score, matched: matched[slot]! };
    if (best.length === limit && byScore(candidate, best[limit - 1]!) >= 0) continue;
    let at = best.length === limit ? limit - 1 : best.length;
    while (at > 0 && byScore(candidate, best[at - 1]!) < 0) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = candidate;
  }
  // Left clean for the next question.
  for (let h = 0; h < hitTotal; h++) {
    scores[hits[h]!] = 0;
    matched[hits[h]!] = 0;
  }
  return best;
}

/** The document whose run of slots holds `slot` (base is ascending, base[0] = 0). */
function documentOfSlot(base: Int32Array, slot: number): number {
  let lo = 0;
  let hi = base.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (base[mid]! <= slot) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * What the ranking's scores are measured against: the highest BM25 a chunk could reach for these
 * terms (each word's idf times BM25's saturation bound k1 + 1, over the words the documents hold),
 * and how many of the terms occur nowhere in the documents (the sign of a question they cannot
 * answer). Same statistics as rankCandidates.
 */
export function queryStats(
  docs: { id: string; postings: DocumentPostings }[],
  terms: string[],
  looked: TermLookup = lookUpTerms(docs, terms),
): { ceiling: number; absent: number } {
  const { df, n } = looked;
  let ceiling = 0;
  let absent = 0;
  for (const f of df) {
    if (f === 0) absent++;
    else ceiling += idfOf(n, f) * (K1 + 1);
  }
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
