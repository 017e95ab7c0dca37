// Nearest-neighbour search for hybrid retrieval, fast at 100,000 chunks. pgvector's exact scan
// reads every vector of a personality (about 300 ms for 10,000 chunks on PGlite), so the first pass
// runs here, in memory, over one sign bit per component (64 bytes a chunk for 512 dimensions, kept
// in the database beside each vector): the chunks nearest by Hamming distance are then re-ranked
// by their exact cosine in SQL. Memory holds only what it can rebuild from the database: a
// document's bits are reloaded when its chunks are replaced, and refreshed while it is being
// embedded. Privacy is not decided here: the documents come from the asker's usable list, and the
// winners are read back through readCandidates, which checks the asker's right again.
import type { Database } from '../../db/client';
import type { EmbeddingClient } from '../../ai/embeddings';
import { candidateVectors, loadDocumentBits, signBits } from '../documents/chunk-search.repository';
import type { VectorStore } from '../../db/embeddings-schema';
import * as repo from './retrieval.repository';
import type { VectorSearch } from './retrieval';
import { signBitDistances } from './sign-bit-distances';

/** Chunks re-ranked by exact cosine after the bit pass. */
const RERANK = 100;
/** A document still being embedded is reloaded at most this often. */
const REFRESH_MS = 5000;
const DEFAULT_BUDGET_BYTES = 32 * 1024 * 1024;

interface Entry {
  generation: number;
  complete: boolean;
  loadedAt: number;
  chunkIds: string[];
  chunkIndexes: Int32Array;
  bits: Uint32Array;
  bytes: number;
}

export function createVectorIndex(
  db: Database,
  store: VectorStore,
  embeddings: EmbeddingClient,
  opts: { budgetBytes?: number } = {},
): VectorSearch {
  const budget = opts.budgetBytes ?? DEFAULT_BUDGET_BYTES;
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const loading = new Map<string, Promise<Entry>>();

  function remember(id: string, entry: Entry) {
    forget(id);
    if (entry.bytes > budget) return;
    entries.set(id, entry);
    bytes += entry.bytes;
    for (const [key, e] of entries) {
      if (bytes <= budget) break;
      entries.delete(key);
      bytes -= e.bytes;
    }
  }
  function forget(id: string) {
    const e = entries.get(id);
    if (e) {
      entries.delete(id);
      bytes -= e.bytes;
    }
  }

  async function load(d: repo.UsableDocument): Promise<Entry> {
    const { chunkIds, chunkIndexes, bits } = await loadDocumentBits(db, store, d.id, embeddings.model);
    const words = new Uint32Array(bits.buffer.slice(bits.byteOffset, bits.byteOffset + bits.byteLength));
    return {
      generation: d.chunkGeneration,
      complete: !d.notReady,
      loadedAt: Date.now(),
      chunkIds,
      chunkIndexes: Int32Array.from(chunkIndexes),
      bits: words,
      bytes: words.byteLength + chunkIds.length * 60 + chunkIndexes.length * 4,
    };
  }

  async function entryFor(d: repo.UsableDocument): Promise<Entry> {
    const cached = entries.get(d.id);
    const fresh =
      cached && cached.generation === d.chunkGeneration && (cached.complete ? true : d.notReady && Date.now() - cached.loadedAt < REFRESH_MS);
    if (cached && fresh) {
      entries.delete(d.id);
      entries.set(d.id, cached);
      return cached;
    }
    let pending = loading.get(d.id);
    if (!pending) {
      pending = load(d).finally(() => loading.delete(d.id));
      loading.set(d.id, pending);
    }
    const entry = await pending;
    remember(d.id, entry);
    return entry;
  }

  /** The bit pass: the RERANK chunks of these documents nearest the question by Hamming distance. */
  async function nearestCandidates(documents: repo.UsableDocument[], embedding: number[]): Promise<string[]> {
    if (documents.length === 0 || embedding.length === 0) return [];
    const indexed: { id: string; entry: Entry }[] = [];
    for (const d of documents) indexed.push({ id: d.id, entry: await entryFor(d) });
    const query = new Uint32Array(signBits(embedding).buffer.slice(0));
    return nearestByBits(indexed, query, RERANK).map((n) => n.chunkId);
  }

  return {
    embedQuery: async (text, signal) => (await embeddings.embed([text.slice(0, 4000)], signal))[0]!,

    async nearest(scope, embedding, limit, usable) {
      const documents = usable ?? (await repo.questionAndDocuments(db, scope, '')).documents;
      const near = await nearestCandidates(documents, embedding);
      if (near.length === 0) return [];
      // Exact cosine for those, the best `limit` read with their text (the asker's right checked again).
      return repo.nearestAmong(db, store, scope, near, embedding, embeddings.model, limit);
    },

    vectorsOf: (chunkIds, embedding) => candidateVectors(db, store, chunkIds, embedding, embeddings.model),

    async warm(documents) {
      for (const d of documents) await entryFor(d);
    },

    // pgvector only: with float32 bytea the app computes the cosines, and the two reads stay apart.
    ...(store === 'pgvector'
      ? {
          async nearestWithVectors(scope: repo.ChunkScope, embedding: number[], limit: number, documents: repo.UsableDocument[], otherIds: string[]) {
            const near = await nearestCandidates(documents, embedding);
            return repo.nearestWithVectors(db, scope, near, otherIds, embedding, embeddings.model, limit);
          },
        }
      : {}),
  };
}

/** Scratch space for the distances of one pass (one pass runs at a time on this thread). */
let scratchDistances = new Uint16Array(0);

/**
 * The `k` chunks whose sign bits differ least from the query's, over every document given: the
 * distances in one pass (sign-bit-distances.ts, SIMD), then the cut-off from their histogram.
 */
export function nearestByBits(
  docs: { id: string; entry: Pick<Entry, 'chunkIds' | 'chunkIndexes' | 'bits'> }[],
  query: Uint32Array,
  k: number,
): { documentId: string; chunkId: string; chunkIndex: number; distance: number }[] {
  const maxDistance = query.length * 32;
  // A document whose vectors are another length than the question's (a model that changed its
  // dimensions under the same name) has nothing comparable: SQL would refuse its chunks anyway.
  docs = docs.filter(({ entry }) => entry.bits.length === entry.chunkIds.length * query.length);
  let total = 0;
  for (const { entry } of docs) total += entry.chunkIds.length;
  if (scratchDistances.length < total) scratchDistances = new Uint16Array(total);
  const distances = scratchDistances;
  signBitDistances(docs.map(({ entry }) => entry.bits), query, distances);
  // The cut-off distance from the histogram (distances are small integers), then the chunks within it.
  const histogram = new Uint32Array(maxDistance + 1);
  for (let i = 0; i < total; i++) histogram[distances[i]!]!++;
  let cutoff = 0;
  let count = 0;
  while (cutoff <= maxDistance && count + histogram[cutoff]! <= k) count += histogram[cutoff++]!;
  let atCutoff = k - count;
  const out: { documentId: string; chunkId: string; chunkIndex: number; distance: number }[] = [];
  let at = 0;
  for (const { id, entry } of docs) {
    const n = entry.chunkIds.length;
    for (let i = 0; i < n; i++) {
      const d = distances[at++]!;
      if (d < cutoff || (d === cutoff && atCutoff-- > 0)) out.push({ documentId: id, chunkId: entry.chunkIds[i]!, chunkIndex: entry.chunkIndexes[i]!, distance: d });
    }
  }
  return out.sort((a, b) => a.distance - b.distance);
}
