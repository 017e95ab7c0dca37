// The in-memory full-text index: postings parsed from the database's text, BM25 ranking, the
// top-k selection, and the cache's budget and staleness rules.
import { describe, expect, it } from 'vitest';
import { PostingsCache, parsePostings, postingsOf, rankCandidates, termHash, type DocumentPostings } from './lexical-index';

/** Builds the text loadPostings returns (a line per chunk: its position and tsvector), from chunks given as lists of (stemmed) words. */
function postingsText(chunks: string[][]): string {
  return chunks
    .map((words, chunk) => {
      const positions = new Map<string, number[]>();
      words.forEach((w, i) => positions.set(w, [...(positions.get(w) ?? []), i + 1]));
      return `${chunk} ${[...positions].map(([w, at]) => `'${w.replace(/'/g, "''")}':${at.join(',')}`).join(' ')}`;
    })
    .join('\n');
}

function doc(id: string, chunks: string[][], generation = 0): { id: string; postings: DocumentPostings } {
  return { id, postings: parsePostings(postingsText(chunks), generation, chunks.length) };
}

describe('parsePostings', () => {
  it('reads positions, counts and chunk lengths from the chunks\' tsvectors, and finds words by their hash', () => {
    const p = parsePostings("0 'babbag':1\n1 'engin':1,2\n2 'babbag':1,2,3 'engin':4 'number':5", 7, 3);
    expect(p.generation).toBe(7);
    const [s, e] = postingsOf(p, 'babbag');
    expect([...p.chunks.subarray(s, e)]).toEqual([0, 2]);
    expect([...p.tf.subarray(s, e)]).toEqual([1, 3]);
    expect([...p.chunks.subarray(...postingsOf(p, 'engin'))]).toEqual([1, 2]);
    expect([...p.tf.subarray(...postingsOf(p, 'engin'))]).toEqual([2, 1]);
    expect([...p.lengths]).toEqual([1, 2, 5]);
    expect(p.totalLength).toBe(8);
    expect(postingsOf(p, 'missing')).toEqual([0, 0]);
  });

  it('reads words as PostgreSQL quotes them: doubled quotes and backslashes, weights, no positions', () => {
    const p = parsePostings(String.raw`0 'it''s':1A,4B 'back\\slash':2 'bare' 'a b':3` + "\n1 'it''s':2", 0, 2);
    expect(p.terms).toEqual(['a b', String.raw`back\slash`, 'bare', "it's"]);
    expect([...p.chunks.subarray(...postingsOf(p, "it's"))]).toEqual([0, 1]);
    expect([...p.tf.subarray(...postingsOf(p, "it's"))]).toEqual([2, 1]);
    expect([...p.tf.subarray(...postingsOf(p, 'bare'))]).toEqual([1]);
    expect([...p.lengths]).toEqual([5, 1]);
  });

  it('skips a word with a line break in it and a line of another form, keeping the rest', () => {
    const p = parsePostings("0 'two\nlines':1 'kept':2\nnot a chunk line\nnospace\n1 'kept':1", 0, 2);
    expect(p.terms).toEqual(['kept']);
    expect([...p.chunks.subarray(...postingsOf(p, 'kept'))]).toEqual([0, 1]);
  });

  it('tells apart words that share a hash, and finds every word of a large document', () => {
    // Two five-letter words FNV-1a maps to the same 32 bits (found by search).
    expect(termHash('yaczf')).toBe(termHash('glbpp'));
    const p = parsePostings("0 'yaczf':1\n1 'other':1\n2 'yaczf':1\n3 'glbpp':1", 0, 4);
    expect([...p.chunks.subarray(...postingsOf(p, 'yaczf'))]).toEqual([0, 2]);
    expect([...p.chunks.subarray(...postingsOf(p, 'glbpp'))]).toEqual([3]);
    expect(postingsOf(p, 'glbpq')).toEqual([0, 0]);
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
    const big = parsePostings(postingsText(Array.from({ length: 7 }, (_, c) => words.filter((_, i) => i % 7 === c))), 0, 7);
    for (const [i, w] of words.entries()) expect([...big.chunks.subarray(...postingsOf(big, w))]).toEqual([i % 7]);
    expect(postingsOf(big, 'w-absent')).toEqual([0, 0]);
  });

  it('sorts words (PostgreSQL orders a tsvector by length first), each with its own postings', () => {
    const p = parsePostings("0 'zeta':1\n1 'alpha':1\n2 'mid':2 'alpha':1", 0, 3);
    expect(p.terms).toEqual(['alpha', 'mid', 'zeta']);
    const [s, e] = postingsOf(p, 'alpha');
    expect([...p.chunks.subarray(s, e)]).toEqual([1, 2]);
    const [zs, ze] = postingsOf(p, 'zeta');
    expect([...p.chunks.subarray(zs, ze)]).toEqual([0]);
  });

  it('keeps positions in 16 bits below 65,536 chunks and in 32 above, and caps a count at 255 (lengths keep the true count)', () => {
    const many = Array.from({ length: 300 }, (_, i) => i + 1).join(',');
    const small = parsePostings(`0 'engin':${many}\n65535 'engin':1`, 0, 65536);
    expect(small.chunks).toBeInstanceOf(Uint16Array);
    const [s, e] = postingsOf(small, 'engin');
    expect([...small.chunks.subarray(s, e)]).toEqual([0, 65535]);
    expect([...small.tf.subarray(s, e)]).toEqual([255, 1]);
    expect(small.lengths[0]).toBe(300);
    const large = parsePostings("1 'alpha':1\n65536 'alpha':1\n70000 'zeta':1", 0, 70001);
    expect(large.chunks).toBeInstanceOf(Int32Array);
    const [as, ae] = postingsOf(large, 'alpha');
    expect([...large.chunks.subarray(as, ae)]).toEqual([1, 65536]);
    const [zs, ze] = postingsOf(large, 'zeta');
    expect([...large.chunks.subarray(zs, ze)]).toEqual([70000]);
  });

  it('reads an empty document', () => {
    const p = parsePostings('', 0, 0);
    expect(p.terms).toEqual([]);
    expect(rankCandidates([{ id: 'd', postings: p }], ['anything'], 5)).toEqual([]);
  });
});

describe('rankCandidates (BM25)', () => {
  it('ranks a chunk holding the rarer word first, and more of the words above fewer', () => {
    const d = doc('d1', [['engin', 'common'], ['common', 'filler'], ['rare', 'filler'], ['rare', 'engin', 'common'], ['common', 'x']]);
    const ranked = rankCandidates([d], ['rare', 'common'], 5);
    // Both words; the rare one alone; then the common one alone (equal lengths: in chunk order).
    expect(ranked.map((c) => c.chunkIndex)).toEqual([3, 2, 0, 1, 4]);
    expect(ranked[0]).toMatchObject({ chunkIndex: 3, matched: 2 });
    expect(ranked[1]).toMatchObject({ chunkIndex: 2, matched: 1 });
  });

  it('saturates repetition and prefers the shorter of two chunks with the same matches', () => {
    const d = doc('d1', [['word', 'word', 'word', 'word', 'a', 'b', 'c', 'e', 'f', 'g'], ['word', 'a'], ['other']]);
    const ranked = rankCandidates([d], ['word'], 5);
    expect(ranked.map((c) => c.chunkIndex)).toEqual([0, 1]);
    // Four times the word scores more, but not four times as much.
    expect(ranked[0]!.score / ranked[1]!.score).toBeLessThan(2);
    const short = doc('d2', [['word', 'a', 'b', 'c', 'e', 'f'], ['word', 'a']]);
    expect(rankCandidates([short], ['word'], 5).map((c) => c.chunkIndex)).toEqual([1, 0]);
  });

  it('counts statistics over the documents given only, and breaks ties by document then chunk', () => {
    const a = doc('a', [['tie'], ['tie']]);
    const b = doc('b', [['tie']]);
    expect(rankCandidates([b, a], ['tie'], 5).map((c) => `${c.documentId}#${c.chunkIndex}`)).toEqual(['a#0', 'a#1', 'b#0']);
  });

  it('returns the same best k as a full sort, on a large random corpus', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    const docs = Array.from({ length: 8 }, (_, d) =>
      doc(`doc-${d}`, Array.from({ length: 120 }, () => Array.from({ length: 20 }, () => words[Math.floor(random() ** 2 * words.length)]!))),
    );
    const terms = ['w1', 'w5', 'w40', 'w200'];
    const all = rankCandidates(docs, terms, 100_000);
    expect(all.length).toBeGreaterThan(100);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
    expect(rankCandidates(docs, terms, 24)).toEqual(all.slice(0, 24));
    expect(rankCandidates(docs, terms, 0)).toEqual([]);
  });
});

describe('PostingsCache', () => {
  const sample = (generation: number) => parsePostings('word 0,1,2', generation, 3);

  it('serves an entry only for its generation of the chunks', () => {
    const cache = new PostingsCache(1 << 20);
    cache.set('d', sample(1));
    expect(cache.get('d', 1)).toBeDefined();
    expect(cache.get('d', 2)).toBeUndefined();
    // A stale entry is dropped, not kept beside the new one.
    expect(cache.size.documents).toBe(0);
  });

  it('drops the least recently used documents past its budget, and never holds a document larger than it', () => {
    const one = sample(0);
    const budget = 2.5 * (cache0Bytes(one) || 1);
    const cache = new PostingsCache(budget);
    cache.set('a', sample(0));
    cache.set('b', sample(0));
    expect(cache.get('a', 0)).toBeDefined(); // a is now the most recent
    cache.set('c', sample(0));
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBeDefined();
    expect(cache.get('c', 0)).toBeDefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(budget);
    const tiny = new PostingsCache(10);
    tiny.set('x', sample(0));
    expect(tiny.size.documents).toBe(0);
  });

  it('never evicts what the current question holds: what does not fit is not kept, and what is kept stays', () => {
    const budget = 2.5 * (cache0Bytes(sample(0)) || 1);
    const cache = new PostingsCache(budget);
    // A question over three documents when two fit, asked twice in the same order.
    for (let round = 0; round < 2; round++) {
      const held = new Set<string>();
      for (const id of ['a', 'b', 'c']) {
        if (!cache.get(id, 0)) cache.set(id, sample(0), held);
        held.add(id);
      }
    }
    // Plain LRU would have dropped a for c, then b for a, and so on, reloading every time; here a
    // and b stay and only c is read each time.
    expect(cache.get('a', 0)).toBeDefined();
    expect(cache.get('b', 0)).toBeDefined();
    expect(cache.get('c', 0)).toBeUndefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(budget);
    // Another question, holding nothing, still gets room by evicting the least recently used.
    cache.set('d', sample(0));
    expect(cache.get('d', 0)).toBeDefined();
    expect(cache.get('a', 0)).toBeUndefined();
  });
});

function cache0Bytes(p: DocumentPostings): number {
  const probe = new PostingsCache(Number.MAX_SAFE_INTEGER);
  probe.set('p', p);
  return probe.size.bytes;
}
