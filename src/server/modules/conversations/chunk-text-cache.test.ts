// The chunk text cache: entries only under their own generation, least recently used dropped
// first past the budget, nothing larger than the budget kept.
import { describe, expect, it } from 'vitest';
import { ChunkTextCache, type ChunkTextRow } from './chunk-text-cache';

const row = (chunkIndex: number, content: string, chunkGeneration = 1, documentId = 'doc-a'): ChunkTextRow => ({
  chunkId: `${documentId}-${chunkGeneration}-${chunkIndex}`,
  documentId,
  fileName: 'notes.txt',
  chunkGeneration,
  chunkIndex,
  content,
});

describe('ChunkTextCache', () => {
  it('answers a chunk only under the generation it was read in', () => {
    const cache = new ChunkTextCache(1_000_000);
    cache.set(row(0, 'The lighthouse keeper kept a log.', 1));
    expect(cache.get('doc-a', 1, 0)?.content).toBe('The lighthouse keeper kept a log.');
    expect(cache.get('doc-a', 2, 0)).toBeUndefined();
    expect(cache.get('doc-a', 1, 1)).toBeUndefined();
    expect(cache.get('doc-b', 1, 0)).toBeUndefined();
    // The new generation's text is a separate entry.
    cache.set(row(0, 'A windmill ground the grain.', 2));
    expect(cache.get('doc-a', 2, 0)?.content).toBe('A windmill ground the grain.');
    expect(cache.get('doc-a', 1, 0)?.content).toBe('The lighthouse keeper kept a log.');
    // The entry carries what a passage needs, not the generation.
    expect(cache.get('doc-a', 2, 0)).toEqual({ chunkId: 'doc-a-2-0', documentId: 'doc-a', fileName: 'notes.txt', chunkIndex: 0, content: 'A windmill ground the grain.' });
  });

  it('drops the least recently used past its budget, and keeps nothing larger than the budget', () => {
    const text = 'x'.repeat(1000);
    const one = new ChunkTextCache(1_000_000);
    one.set(row(0, text));
    const perEntry = one.size.bytes;
    const cache = new ChunkTextCache(perEntry * 3);
    cache.set(row(0, text));
    cache.set(row(1, text));
    cache.set(row(2, text));
    expect(cache.get('doc-a', 1, 0)).toBeDefined(); // now the most recently used
    cache.set(row(3, text));
    expect(cache.size.chunks).toBe(3);
    expect(cache.size.bytes).toBeLessThanOrEqual(perEntry * 3);
    expect(cache.get('doc-a', 1, 1)).toBeUndefined();
    expect(cache.get('doc-a', 1, 0)).toBeDefined();
    expect(cache.get('doc-a', 1, 3)).toBeDefined();
    // Setting the same chunk again replaces it without counting it twice.
    cache.set(row(3, text));
    expect(cache.size.bytes).toBeLessThanOrEqual(perEntry * 3);

    const small = new ChunkTextCache(500);
    small.set(row(0, text));
    expect(small.get('doc-a', 1, 0)).toBeUndefined();
    expect(small.size).toEqual({ chunks: 0, bytes: 0 });
  });
});
