// Finds the passages a reply should draw on, and tells when the documents cannot answer at all.
// Full-text ranking (BM25 over stemmed words, stop words dropped) always; with an embedding model
// (the embedded one by default) and pgvector, hybrid: each candidate from either list is scored
//   0.5 x BM25 / the question's highest possible BM25
// + 0.5 x the average of the chunk's cosine and its best sentence's cosine with the question,
// which is the score shown as "% match" (0..1, the same number in the preview and the references).
// Near-duplicate passages are dropped from the top. Both SQL searches filter by visibility and
// privacy; this file decides how to combine them, behind a small interface the chat service uses.
import type { Database } from '../../db/client';
import type { Logger } from '../../lib/logger';
import type { EmbeddingClient } from '../../ai/embeddings';
import { words } from '../../ai/offline/text-match';
import { bestSayableSentence } from '../../ai/offline/offline-responder';
import { candidateVectors, nearestChunks, type CandidateVectors, type ChunkHit } from '../documents/chunk-search.repository';
import type { VectorStore } from '../../db/embeddings-schema';
import { sentenceCosines } from '../documents/sentence-vectors';
import { StarterVectors } from './starter-vectors';
import type * as repo from './retrieval.repository';
import { createLexicalSearch } from './lexical-search';

export interface RetrievedPassage {
  chunkId: string;
  documentId: string;
  fileName: string;
  chunkIndex: number;
  content: string;
  /** 0..1, shown as "% match": the score that ranked the passage (see the top of this file). */
  similarity: number;
  /** Index, in sentences(content), of the sentence most similar to the question (when vectors know it). */
  bestSentence?: number;
  /** That sentence's cosine similarity with the question. */
  sentenceSimilarity?: number;
}

export interface RetrievalQuery extends repo.ChunkScope {
  text: string;
  limit: number;
  /** The question's words and usable documents, already read for this scope and text (questionColumns). */
  known?: repo.QuestionAndDocuments;
  /** The question is one of this personality's conversation starters: its vector is kept (starter-vectors.ts). */
  starter?: boolean;
}

export interface RetrievalResult {
  passages: RetrievedPassage[];
  /** Documents the asker may use whose processing is queued or running. */
  documentsNotReady: number;
  /** The documents cannot answer this question (see looksUnanswerable): a reply quotes nothing. */
  unanswerable?: boolean;
  /** What the unanswerable decision saw (for the quality benchmark and debugging). */
  signals?: AnswerabilitySignals;
}

export interface AnswerabilitySignals {
  /** The question's searchable words. */
  terms: number;
  /** How many of them occur in none of the documents. */
  absentTerms: number;
  /** Names the question mentions that occur in none of the documents. */
  absentNames: number;
  /** The closest cosine of any sentence that says something (not a heading or a question line); absent without vectors. */
  bestSentenceCosine?: number;
}

/** The passages a reply may draw on: none when the documents cannot answer the question. */
export function answeringPassages(result: RetrievalResult): RetrievedPassage[] {
  return result.unanswerable ? [] : result.passages;
}

export interface Retriever {
  readonly mode: 'full-text' | 'hybrid';
  search(query: RetrievalQuery): Promise<RetrievalResult>;
  /**
   * Prepares the indexes of the documents `scope`'s asker may use (full-text, and the vectors'
   * sign bits when hybrid) before their first question: after a start, a library of 10,000 chunks
   * takes its first question ~1.1 s to load. Memory holds nothing the question itself
   * would not have loaded; every question still checks the asker's right in SQL.
   */
  warm(scope: repo.ChunkScope): Promise<void>;
}

/** Vector side of hybrid retrieval: embeds the question, finds the nearest chunks, reads candidates' vectors. */
export interface VectorSearch {
  /** `signal`: the question's budget ran out (the request is dropped). */
  embedQuery(text: string, signal?: AbortSignal): Promise<number[]>;
  /** `documents`: the asker's usable documents when the caller has just read them (saves reading them again). */
  nearest(scope: repo.ChunkScope, embedding: number[], limit: number, documents?: repo.UsableDocument[]): Promise<ChunkHit[]>;
  vectorsOf(chunkIds: string[], embedding: number[]): Promise<CandidateVectors[]>;
  /** Loads what `nearest` keeps in memory for these documents (the bit index), ahead of a first question. */
  warm?(documents: repo.UsableDocument[]): Promise<void>;
  /**
   * nearest, and vectorsOf for its hits and `otherIds` (the full-text candidates), in one go where
   * the store allows it (pgvector: one statement). Absent: the two are called one after the other.
   */
  nearestWithVectors?(
    scope: repo.ChunkScope,
    embedding: number[],
    limit: number,
    documents: repo.UsableDocument[],
    otherIds: string[],
  ): Promise<{ nearest: ChunkHit[]; vectors: CandidateVectors[] }>;
}

/**
 * The vector side by exact scan (nearestChunks) with an embedding model: the reference the bit
 * index (vector-index.ts) is measured against, and simple enough for tests over a few chunks.
 */
export function exactVectorSearch(db: Database, store: VectorStore, embeddings: EmbeddingClient): VectorSearch {
  return {
    embedQuery: async (text, signal) => (await embeddings.embed([text.slice(0, 4000)], signal))[0]!,
    nearest: (scope, embedding, limit) => nearestChunks(db, store, { ...scope, limit, embedding, model: embeddings.model }),
    vectorsOf: (chunkIds, embedding) => candidateVectors(db, store, chunkIds, embedding, embeddings.model),
  };
}

/** Each list contributes this many candidates before scoring. */
const CANDIDATES = 30;
/** Weight of the lexical part of the hybrid score (the vector part has the rest). */
export const LEXICAL_WEIGHT = 0.5;

/**
 * The documents cannot answer: the question names something they never mention; or half or more
 * of its content words occur nowhere in them (no retrieval-score threshold separates these
 * questions as well) and, when vectors are there, not even the closest sentence that says
 * something is near the question. A question line in a document ("Q: What is your favourite
 * book?") is not evidence: it matches the question's form ("favourite film"), not an answer.
 * Without vectors, only when most of its words are absent.
 */
export function looksUnanswerable(signals: AnswerabilitySignals, nearSentence = NEAR_SENTENCE): boolean {
  const { terms, absentTerms, absentNames, bestSentenceCosine } = signals;
  if (absentNames > 0) return true;
  if (terms === 0) return false;
  if (bestSentenceCosine === undefined) return absentTerms * 2 > terms;
  return absentTerms * 2 >= terms && bestSentenceCosine < nearSentence;
}
/**
 * Best sentence cosine (embedded model) from which a sentence is taken to speak to the question.
 * Chosen on the quality benchmark's own set, which prints the trade-off at each threshold: here at
 * most 1 answerable question is declined (a person told "my documents say nothing" when they do is
 * worse off than one shown a passage that misses); higher declines more unanswerable questions but
 * soon more answerable ones too (0.45: 10 of 12 unanswerable, but 10 of 51 answerable).
 */
export const NEAR_SENTENCE = 0.325;

interface Scored {
  hit: Omit<ChunkHit, 'score'>;
  score: number;
  bestSentence?: number;
  bestSentenceCosine?: number;
}

/** How long a question's embedding may take before the reply goes ahead on full-text alone. */
export const QUERY_EMBEDDING_TIMEOUT_MS = 3000;

export function createRetriever(
  db: Database,
  vectors: VectorSearch | undefined,
  logger?: Logger,
  options: { queryEmbeddingTimeoutMs?: number } = {},
): Retriever {
  const embeddingBudgetMs = options.queryEmbeddingTimeoutMs ?? QUERY_EMBEDDING_TIMEOUT_MS;
  const fullText = createLexicalSearch(db, { logger });
  const starters = new StarterVectors();
  return {
    mode: vectors ? 'hybrid' : 'full-text',
    async warm(scope) {
      const { documents } = await fullText.questionWords(scope, '');
      await Promise.all([fullText.warm(scope, documents), vectors?.warm?.(documents)]);
    },
    async search(query) {
      const scope = scopeOf(query);
      const asked = query.known ?? (await fullText.questionWords(scope, query.text));
      // Full-text only: the ranking is final, so only enough candidates to skip near-duplicates
      // are read with their text (fewer bytes before the first token).
      const lexicalSearch = fullText.search(scope, query.text, vectors ? CANDIDATES : Math.min(CANDIDATES, query.limit * 3), asked);
      let embedding: number[] | undefined;
      let nearest: ChunkHit[] = [];
      // Read with the nearest chunks when the vector side can do both in one go.
      let vectorsRead: CandidateVectors[] | undefined;
      // The vector side runs beside the full-text one (embedding the question and the bit scan
      // overlap its statements). No documents the asker may use: nothing to embed the question
      // for, so a personality without documents never waits for the embedding model.
      const vectorSide =
        vectors && asked.documents.length > 0
          ? (async () => {
              try {
                const question = asFirstPerson(query.text);
                // An embedding service that hangs must not hold the reply: past the budget the
                // question is answered from full-text (the catch below), as when it fails.
                embedding = await withinBudget(embeddingBudgetMs, (signal) =>
                  query.starter ? starters.get(query.personalityId, question, (t) => vectors.embedQuery(t)) : vectors.embedQuery(question, signal),
                );
                if (vectors.nearestWithVectors) {
                  // The full-text candidates are in long before the question's vector (~1 ms against ~20).
                  const others = await lexicalSearch.then(
                    (l) => l.hits.map((h) => h.chunkId),
                    () => [],
                  );
                  ({ nearest, vectors: vectorsRead } = await vectors.nearestWithVectors(scope, embedding, CANDIDATES, asked.documents, others));
                } else {
                  nearest = await vectors.nearest(scope, embedding, CANDIDATES, asked.documents);
                }
              } catch (err) {
                // An embedding outage must not silence the reply: full-text still answers.
                embedding = undefined;
                nearest = [];
                vectorsRead = undefined;
                logger?.warn('vector search failed; using full-text only', err instanceof Error ? err.message : err);
              }
            })()
          : undefined;
      const lexical = await lexicalSearch;
      await vectorSide;
      const lexicalPart = (bm25: number) => (lexical.ceiling > 0 ? Math.min(1, bm25 / lexical.ceiling) : 0);
      const candidates = new Map<string, { hit: Omit<ChunkHit, 'score'>; bm25: number }>();
      for (const h of lexical.hits) candidates.set(h.chunkId, { hit: h, bm25: h.score });
      for (const h of nearest) if (!candidates.has(h.chunkId)) candidates.set(h.chunkId, { hit: h, bm25: 0 });

      let vectorsById = new Map<string, CandidateVectors>();
      if (vectorsRead) {
        vectorsById = new Map(vectorsRead.map((v) => [v.chunkId, v]));
      } else if (vectors && embedding && candidates.size > 0) {
        try {
          vectorsById = new Map((await vectors.vectorsOf([...candidates.keys()], embedding)).map((v) => [v.chunkId, v]));
        } catch (err) {
          logger?.warn('reading candidate vectors failed; using full-text only', err instanceof Error ? err.message : err);
        }
      }
      const scored: Scored[] = [...candidates.values()].map(({ hit, bm25 }) => {
        const lex = lexicalPart(bm25);
        const v = vectorsById.get(hit.chunkId);
        // Not embedded yet (its vectors are still being made): ranked by its words alone.
        if (!v || !embedding) return { hit, score: lex };
        const cosines = sentenceCosines(v.sentences, embedding);
        // The ranking counts every sentence (a question line says what the passage is about);
        // the sentence to quote, and the evidence that the documents answer at all, is the
        // closest one that says something.
        const bestSaid = bestSayableSentence(hit.content, cosines);
        const sentence = cosines.length > 0 ? Math.max(...cosines) : v.cosine;
        const semantic = (v.cosine + sentence) / 2;
        return {
          hit,
          score: LEXICAL_WEIGHT * lex + (1 - LEXICAL_WEIGHT) * Math.max(0, semantic),
          bestSentence: bestSaid >= 0 ? bestSaid : undefined,
          // Stored before sentence vectors existed: the chunk's own cosine stands in.
          bestSentenceCosine: bestSaid >= 0 ? cosines[bestSaid]! : cosines.length === 0 ? v.cosine : undefined,
        };
      });
      scored.sort((a, b) => b.score - a.score || (a.hit.documentId < b.hit.documentId ? -1 : a.hit.documentId > b.hit.documentId ? 1 : a.hit.chunkIndex - b.hit.chunkIndex));
      const top = withoutNearDuplicates(scored, query.limit);
      const bestCosine = embedding ? Math.max(-1, ...scored.map((s) => s.bestSentenceCosine ?? -1)) : undefined;
      // Without vectors, only passages holding some of the question's words are evidence.
      const passages = top.filter((s) => s.score > 0).map(toPassage);
      const signals: AnswerabilitySignals = {
        terms: lexical.terms,
        absentTerms: lexical.absentTerms,
        absentNames: lexical.absentNames,
        // With vectors but no sentence that says something among the candidates: nothing near.
        bestSentenceCosine: bestCosine === undefined ? undefined : Math.max(0, bestCosine),
      };
      if (looksUnanswerable(signals)) {
        return { passages, documentsNotReady: lexical.documentsNotReady, unanswerable: true, signals };
      }
      return { passages, documentsNotReady: lexical.documentsNotReady, signals };
    },
  };
}

/** "you/your" in a question to a person read as "I/my": their documents speak in the first person. */
export function asFirstPerson(question: string): string {
  const swaps: [RegExp, string][] = [
    [/\b(are|were) you\b/gi, '$1 I'],
    [/\byou are\b/gi, 'I am'],
    [/\byou were\b/gi, 'I was'],
    [/\byourself\b/gi, 'myself'],
    [/\byours\b/gi, 'mine'],
    [/\byour\b/gi, 'my'],
    [/\byou\b/gi, 'I'],
  ];
  let out = question;
  for (const [pattern, replacement] of swaps) out = out.replace(pattern, replacement);
  return out.replace(/\bare I\b/gi, 'am I').replace(/\bwere I\b/gi, 'was I');
}

/** The best `limit`, skipping any passage that mostly repeats one already kept. */
function withoutNearDuplicates(scored: Scored[], limit: number): Scored[] {
  const kept: { s: Scored; words: Set<string> }[] = [];
  for (const s of scored) {
    if (kept.length >= limit) break;
    const w = new Set(words(s.hit.content));
    if (kept.some((k) => nearDuplicate(k.words, w))) continue;
    kept.push({ s, words: w });
  }
  return kept.map((k) => k.s);
}

/** Most of the smaller passage's words are in the larger one (a repeated or overlapping passage). */
export function nearDuplicate(a: Set<string>, b: Set<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return large.size === 0;
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return shared / small.size >= 0.8 && small.size / large.size >= 0.5;
}

function scopeOf(q: repo.ChunkScope): repo.ChunkScope {
  return { personalityId: q.personalityId, viewerId: q.viewerId };
}

function toPassage({ hit, score, bestSentence, bestSentenceCosine }: Scored): RetrievedPassage {
  return {
    chunkId: hit.chunkId,
    documentId: hit.documentId,
    fileName: hit.fileName,
    chunkIndex: hit.chunkIndex,
    content: hit.content,
    similarity: Math.round(clamp01(score) * 1000) / 1000,
    ...(bestSentence !== undefined ? { bestSentence, sentenceSimilarity: Math.round((bestSentenceCosine ?? 0) * 1000) / 1000 } : {}),
  };
}

function clamp01(n: number): number {
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}

/** `work`'s result, or a rejection once `ms` have passed (its signal is aborted then). */
async function withinBudget<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const budget = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = new Error(`the question's embedding took longer than ${ms} ms`);
      budget.abort(reason);
      reject(reason);
    }, ms);
  });
  try {
    const pending = work(budget.signal);
    pending.catch(() => {}); // lost the race: its own failure is of no interest
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}
