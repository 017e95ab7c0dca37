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

  it('counts each distance exactly and returns the k smallest, however large the pass before it was', () => {
    let seed = 3;
    const random32 = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
    const doc = (id: string, n: number) => {
      const bits = Uint32Array.from({ length: n * 16 }, random32);
      return { id, entry: { chunkIds: Array.from({ length: n }, (_, i) => `${id}-${i}`), chunkIndexes: Int32Array.from({ length: n }, (_, i) => i), bits } };
    };
    const query = Uint32Array.from({ length: 16 }, random32);
    const hamming = (bits: Uint32Array, i: number) => {
      let d = 0;
      for (let w = 0; w < 16; w++) for (let x = (bits[i * 16 + w]! ^ query[w]!) >>> 0; x; x >>>= 1) d += x & 1;
      return d;
    };
    const check = (docs: ReturnType<typeof doc>[], k: number) => {
      const all = docs.flatMap((d) => d.entry.chunkIds.map((chunkId, i) => ({ chunkId, distance: hamming(d.entry.bits, i) })));
      const found = nearestByBits(docs, query, k);
      expect(found).toHaveLength(Math.min(k, all.length));
      const byId = new Map(all.map((a) => [a.chunkId, a.distance]));
      for (const f of found) expect(f.distance).toBe(byId.get(f.chunkId));
      const worst = found[found.length - 1]!.distance;
      const chosen = new Set(found.map((f) => f.chunkId));
      for (const a of all) if (!chosen.has(a.chunkId)) expect(a.distance).toBeGreaterThanOrEqual(worst);
    };
    check([doc('a', 2000), doc('b', 1500)], 100);
    // A smaller pass after a larger one (its scratch space is reused).
    check([doc('c', 40)], 10);
    // A document whose vectors are another length (8 words each) is skipped, not read out of step.
    const other = doc('other', 40);
    other.entry.chunkIds = other.entry.chunkIds.concat(other.entry.chunkIds.map((id) => `${id}-b`));
    other.entry.chunkIndexes = Int32Array.from({ length: 80 }, (_, i) => i);
    const mixed = nearestByBits([doc('d', 30), other, doc('e', 30)], query, 1000);
    expect(mixed).toHaveLength(60);
    expect(mixed.some((f) => f.documentId === 'other')).toBe(false);
  });
});
