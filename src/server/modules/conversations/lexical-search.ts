// Full-text retrieval over the in-memory index (lexical-index.ts), ranked by BM25: three short
// statements instead of one that reads every matching chunk. (1) The question's words and the documents the asker
// may use. (2) Postings of any of those documents not yet in memory, or whose chunks were replaced
// since (a document's chunk generation says so). (3) The winning chunks' text, the asker's right
// to them checked again. The database stays the only truth: memory holds nothing it cannot
// rebuild, and a stale entry is never used.
import type { Database } from '../../db/client';
import { contentWords, namedWords } from '../../ai/offline/text-match';
import { PostingsCache, parsePostings, queryStats, rankCandidates, type DocumentPostings } from './lexical-index';
import * as repo from './retrieval.repository';

/**
 * Postings of about 150,000 chunks of prose fit (measured: ~0.8 MB per 1,000 chunks of 1,000
 * characters, most of it the words themselves). 64 MB held only ~78,000, so a personality of
 * 100,000 chunks read a fifth of its postings again for every question (bench/retrieval-scale).
 */
const DEFAULT_BUDGET_BYTES = 128 * 1024 * 1024;

export interface LexicalSearch {
  /** Reads what `search` starts from, so the caller can share the documents with the vector side. */
  questionWords(scope: repo.ChunkScope, text: string): Promise<repo.QuestionAndDocuments>;
  /** `known`: the question's words and documents, already read in this request (see questionColumns). */
  search(scope: repo.ChunkScope, text: string, limit: number, known?: repo.QuestionAndDocuments): Promise<repo.RankedSearch>;
  /** Loads a personality's public postings ahead of its first question (start-up preloading). */
  warm(personalityId: string): Promise<void>;
}

/**
 * Words that say nothing of the subject (ever, like, two, first...) are dropped with a kept
 * English stopword list before the database stems the rest the way it indexed the chunks.
 */
function questionText(text: string): [string, string] {
  return [contentWords(text).join(' '), namedWords(text).join(' ')];
}

/** The first read of a search as columns of a caller's statement (read back with repo.readQuestionAndDocuments). */
export function questionColumns(scope: repo.ChunkScope, text: string) {
  return repo.questionAndDocumentsColumns(scope, ...questionText(text));
}

export function createLexicalSearch(db: Database, opts: { budgetBytes?: number } = {}): LexicalSearch {
  const cache = new PostingsCache(opts.budgetBytes ?? DEFAULT_BUDGET_BYTES);
  // One load per document at a time: concurrent first questions wait for the same load.
  const loading = new Map<string, Promise<void>>();

  async function postingsFor(documents: repo.UsableDocument[]): Promise<{ id: string; postings: DocumentPostings }[]> {
    const found = new Map<string, DocumentPostings>();
    const missing: repo.UsableDocument[] = [];
    for (const d of documents) {
      const cached = cache.get(d.id, d.chunkGeneration);
      if (cached) found.set(d.id, cached);
      else missing.push(d);
    }
    // One document per statement: a large library loads in many short statements that other
    // requests' statements can run between, instead of one that holds the database for seconds.
    for (const d of missing) {
      let load = loading.get(d.id);
      if (!load) {
        const documentId = d.id;
        load = repo
          .loadPostings(db, documentId)
          .then((row) => {
            // Not at the cost of the postings this question already holds (see PostingsCache).
            if (row) cache.set(documentId, parsePostings(row.postings, row.chunkGeneration, row.chunkCount), new Set(found.keys()));
          })
          .finally(() => loading.delete(d.id));
        loading.set(d.id, load);
      }
      await load;
      // Not cached: the chunks were replaced while loading (the next question loads them), or
      // the document is larger than the whole budget. Either way, this question reads them now.
      found.set(d.id, cache.get(d.id, d.chunkGeneration) ?? (await loadUncached(d)));
    }
    return documents.map((d) => ({ id: d.id, postings: found.get(d.id)! }));
  }

  async function loadUncached(d: repo.UsableDocument): Promise<DocumentPostings> {
    const row = await repo.loadPostings(db, d.id);
    return row ? parsePostings(row.postings, row.chunkGeneration, row.chunkCount) : parsePostings('', d.chunkGeneration, 0);
  }

  const questionWords = (scope: repo.ChunkScope, text: string) => repo.questionAndDocuments(db, scope, ...questionText(text));

  return {
    questionWords,
    async search(scope, text, limit, known) {
      const { terms, nameTerms, documents } = known ?? (await questionWords(scope, text));
      const documentsNotReady = documents.filter((d) => d.notReady).length;
      if (terms.length === 0 || documents.length === 0) {
        return { hits: [], documentsNotReady, documents: documents.length, terms: terms.length, absentTerms: terms.length, absentNames: nameTerms.length, ceiling: 0 };
      }
      const indexed = await postingsFor(documents);
      const { ceiling, absent } = queryStats(indexed, terms);
      const absentNames = nameTerms.length > 0 ? queryStats(indexed, nameTerms).absent : 0;
      const candidates = rankCandidates(indexed, terms, limit);
      const rows = new Map((await repo.readCandidates(db, scope, candidates)).map((r) => [`${r.documentId}:${r.chunkIndex}`, r]));
      const hits = candidates.flatMap((c) => {
        const row = rows.get(`${c.documentId}:${c.chunkIndex}`);
        return row ? [{ ...row, score: c.score, coverage: c.matched / terms.length }] : [];
      });
      return { hits, documentsNotReady, documents: documents.length, terms: terms.length, absentTerms: absent, absentNames, ceiling };
    },

    async warm(personalityId) {
      const { documents } = await repo.questionAndDocuments(db, { personalityId, viewerId: null }, '');
      await postingsFor(documents);
    },
  };
}
