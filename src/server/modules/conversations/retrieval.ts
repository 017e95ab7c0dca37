// Finds the passages a reply should draw on. Full-text ranking always; with an embedding model and
// pgvector, hybrid: full-text and nearest-vector lists fused by reciprocal rank fusion. Both SQL
// searches filter by visibility and privacy; this file decides how to combine them, behind a
// small interface the chat service depends on.
import type { Database } from '../../db/client';
import type { Logger } from '../../lib/logger';
import type { EmbeddingClient } from '../../ai/embeddings';
import { nearestChunks, type ChunkHit } from '../documents/chunk-search.repository';
import type * as repo from './retrieval.repository';
import { createLexicalSearch } from './lexical-search';

export interface RetrievedPassage {
  chunkId: string;
  documentId: string;
  fileName: string;
  chunkIndex: number;
  content: string;
  /** 0..1, shown as "% match": cosine similarity when vectors ranked it, else the share of the question's words the passage holds. */
  similarity: number;
}

export interface RetrievalQuery extends repo.ChunkScope {
  text: string;
  limit: number;
}

export interface RetrievalResult {
  passages: RetrievedPassage[];
  /** Documents the asker may use whose processing is queued or running. */
  documentsNotReady: number;
}

export interface Retriever {
  readonly mode: 'full-text' | 'hybrid';
  search(query: RetrievalQuery): Promise<RetrievalResult>;
  /** Prepares the full-text index of a personality's public documents before its first question. */
  warm(personalityId: string): Promise<void>;
}

/** Vector side of hybrid retrieval: embeds the question and finds the nearest chunks. */
export interface VectorSearch {
  embedQuery(text: string): Promise<number[]>;
  nearest(scope: repo.ChunkScope, embedding: number[], limit: number): Promise<ChunkHit[]>;
}

/** The vector side over pgvector with the configured embedding model. */
export function pgVectorSearch(db: Database, embeddings: EmbeddingClient): VectorSearch {
  return {
    embedQuery: async (text) => (await embeddings.embed([text.slice(0, 4000)]))[0]!,
    nearest: (scope, embedding, limit) => nearestChunks(db, true, { ...scope, limit, embedding, model: embeddings.model }),
  };
}

/** Reciprocal rank fusion constant (Cormack et al.): damps the weight of top ranks. */
export const RRF_K = 60;
/** Each list contributes this many candidates before fusion. */
const CANDIDATES = 20;

export function createRetriever(db: Database, vectors: VectorSearch | undefined, logger?: Logger): Retriever {
  const fullText = createLexicalSearch(db);
  return {
    mode: vectors ? 'hybrid' : 'full-text',
    warm: (personalityId) => fullText.warm(personalityId),
    async search(query) {
      const scope = scopeOf(query);
      const lexical = fullText.search(scope, query.text, vectors ? CANDIDATES : query.limit);
      if (!vectors) {
        const { hits, documentsNotReady } = await lexical;
        return { passages: hits.map((h) => toPassage(h, h.coverage)), documentsNotReady };
      }
      let nearest: ChunkHit[] = [];
      try {
        nearest = await vectors.nearest(scope, await vectors.embedQuery(query.text), CANDIDATES);
      } catch (err) {
        // An embedding outage must not silence the reply: full-text still answers.
        logger?.warn('vector search failed; using full-text only', err instanceof Error ? err.message : err);
      }
      const { hits, documentsNotReady } = await lexical;
      const cosine = new Map(nearest.map((h) => [h.chunkId, h.score]));
      const coverage = new Map(hits.map((h) => [h.chunkId, h.coverage]));
      const passages = fuse([hits, nearest])
        .slice(0, query.limit)
        .map((h) => toPassage(h, cosine.get(h.chunkId) ?? coverage.get(h.chunkId) ?? 0));
      return { passages, documentsNotReady };
    },
  };
}

/** Reciprocal rank fusion: score = sum over lists of 1 / (RRF_K + rank). Ties keep list order. */
export function fuse<T extends ChunkHit>(lists: T[][]): T[] {
  const scores = new Map<string, { hit: T; score: number; first: number }>();
  let seen = 0;
  for (const list of lists) {
    list.forEach((hit, i) => {
      const entry = scores.get(hit.chunkId) ?? { hit, score: 0, first: seen++ };
      entry.score += 1 / (RRF_K + i + 1);
      scores.set(hit.chunkId, entry);
    });
  }
  return [...scores.values()].sort((a, b) => b.score - a.score || a.first - b.first).map((e) => e.hit);
}

function scopeOf(q: repo.ChunkScope): repo.ChunkScope {
  return { personalityId: q.personalityId, viewerId: q.viewerId };
}

function toPassage(h: ChunkHit, similarity: number): RetrievedPassage {
  return {
    chunkId: h.chunkId,
    documentId: h.documentId,
    fileName: h.fileName,
    chunkIndex: h.chunkIndex,
    content: h.content,
    similarity: Math.round(clamp01(similarity) * 1000) / 1000,
  };
}

function clamp01(n: number): number {
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}
