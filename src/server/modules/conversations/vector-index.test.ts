// The in-memory first pass of nearest-neighbour search: sign bits and Hamming distance pick the
// candidates that exact cosine then re-ranks; it must keep the true nearest among them.
import { describe, expect, it } from 'vitest';
import { signBits } from '../documents/chunk-search.repository';
import { nearestByBits } from './vector-index';

function vector(seed: number, dims = 512): number[] {
  let x = seed;
  const v = Array.from({ length: dims }, () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((c) => c / n);
}

const words = (v: number[]) => new Uint32Array(new Uint8Array(signBits(v)).buffer);

describe('nearestByBits', () => {
  it('returns exactly k candidates over several documents, the closest first, and keeps the true nearest', () => {
    const docs = [0, 1, 2].map((d) => {
      const vs = Array.from({ length: 300 }, (_, i) => vector(d * 1000 + i + 1));
      const bits = new Uint32Array(vs.length * 16);
      vs.forEach((v, i) => bits.set(words(v), i * 16));
      return { id: `doc${d}`, vs, entry: { chunkIds: vs.map((_, i) => `c${d}-${i}`), chunkIndexes: Int32Array.from(vs.map((_, i) => i)), bits } };
    });
    // A question close to chunk 42 of doc1: that chunk with noise added.
    const target = docs[1]!.vs[42]!;
    const query = target.map((x, i) => x + 0.02 * vector(7)[i]!);
    const found = nearestByBits(docs, words(query), 50);
    expect(found).toHaveLength(50);
    expect(found[0]).toMatchObject({ documentId: 'doc1', chunkId: 'c1-42', chunkIndex: 42 });
    for (let i = 1; i < found.length; i++) expect(found[i]!.distance).toBeGreaterThanOrEqual(found[i - 1]!.distance);
    // The true top 5 by cosine are among the 50 candidates.
    const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    const all = docs.flatMap((d) => d.vs.map((v, i) => ({ id: d.entry.chunkIds[i]!, c: cosine(v, query) })));
    all.sort((a, b) => b.c - a.c);
    const ids = new Set(found.map((f) => f.chunkId));
    expect(ids.has(all[0]!.id)).toBe(true);
    // Fewer chunks than k: all of them.
    expect(nearestByBits([docs[0]!], words(query), 1000)).toHaveLength(300);
  });
});
