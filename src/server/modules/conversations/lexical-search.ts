// Full-text retrieval over the in-memory index (lexical-index.ts), ranked by BM25: at most three
// short statements instead of one that reads every matching chunk. (1) The question's words and
// the documents the asker may use. (2) Postings of any of those documents not yet in memory, or
// whose chunks were replaced since (a document's chunk generation says so). (3) The winning
// chunks' text, the asker's right to them checked again, for the winners not in the chunk text
// cache (chunk-text-cache.ts); once a library that fits the cache's budget has been preloaded
// (after its postings load), a question costs statement (1) alone. The database stays the only truth: memory holds nothing it cannot
// rebuild, and a stale entry is never used.
import type { Database } from '../../db/client';
import type { Logger } from '../../lib/logger';
import { contentWords, namedWords } from '../../ai/offline/text-match';
import { PostingsCache, lookUpTerms, parsePostings, queryStats, rankCandidates, type DocumentPostings } from './lexical-index';
import * as repo from './retrieval.repository';
import { ChunkTextCache, type ChunkText } from './chunk-text-cache';

/**
 * Postings of about 150,000 chunks of prose fit (measured: ~0.8 MB per 1,000 chunks of 1,000
 * characters, most of it the words themselves). 64 MB held only ~78,000, so a personality of
 * 100,000 chunks read a fifth of its postings again for every question (bench/retrieval-scale).
 */
const DEFAULT_BUDGET_BYTES = 128 * 1024 * 1024;
/**
 * The winning chunks' text: 10,000 chunks of 1,000 characters fit whole (about 22 MB counted at
 * two bytes a character, what V8 holds at most); a larger library keeps its most recently won
 * chunks. Held only for personalities someone asked (or public ones warmed at start-up).
 */
const DEFAULT_TEXT_BUDGET_BYTES = 32 * 1024 * 1024;
/** A chunk's text in the cache, at most (chunks are cut at about 1,000 characters, two bytes each). */
const PRELOAD_BYTES_PER_CHUNK = 2_400;
/** Chunks a preloading statement reads: about 0.25 MB, a few milliseconds of the database. */
const PRELOAD_PAGE = 250;

export interface LexicalSearch {
  /** Reads what `search` starts from, so the caller can share the documents with the vector side. */
  questionWords(scope: repo.ChunkScope, text: string): Promise<repo.QuestionAndDocuments>;
  /** `known`: the question's words and documents, already read in this request (see questionColumns). */
  search(scope: repo.ChunkScope, text: string, limit: number, known?: repo.QuestionAndDocuments): Promise<repo.RankedSearch>;
  /**
   * Loads the postings of the documents `scope`'s asker may use, and their chunks' text, ahead of
   * a first question (start-up preloading; a chat being opened). `documents`: already read.
   */
  warm(scope: repo.ChunkScope, documents?: repo.UsableDocument[]): Promise<void>;
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

export function createLexicalSearch(db: Database, opts: { budgetBytes?: number; textBudgetBytes?: number; logger?: Logger } = {}): LexicalSearch {
  const { logger } = opts;
  const cache = new PostingsCache(opts.budgetBytes ?? DEFAULT_BUDGET_BYTES);
  const textBudget = opts.textBudgetBytes ?? DEFAULT_TEXT_BUDGET_BYTES;
  const texts = new ChunkTextCache(textBudget);
  // One load per document at a time: concurrent first questions wait for the same load.
  const loading = new Map<string, Promise<void>>();

  async function postingsFor(documents: repo.UsableDocument[]): Promise<{ id: string; postings: DocumentPostings }[]> {
    // The text follows only when the whole library fits: one larger than the budget would read all
    // of its text to keep the last part of it.
    const textFits = documents.reduce((n, d) => n + d.chunkCount, 0) * PRELOAD_BYTES_PER_CHUNK <= textBudget;
    const found = new Map<string, DocumentPostings>();
    const missing: repo.UsableDocument[] = [];
    for (const d of documents) {
      const cached = cache.get(d.id, d.chunkGeneration);
      if (cached) found.set(d.id, cached);
      else missing.push(d);
    }
    const startLoad = (d: repo.UsableDocument): Promise<void> => {
      let load = loading.get(d.id);
      if (!load) {
        const documentId = d.id;
        load = repo
          .loadPostings(db, documentId)
          .then((row) => {
            // Not at the cost of the postings this question already holds (see PostingsCache).
            if (!row) return;
            cache.set(documentId, parsePostings(row.postings, row.chunkGeneration, row.chunkCount), new Set(found.keys()));
            if (textFits) void preloadTexts(documentId, row.chunkGeneration, row.chunkCount);
          })
          .finally(() => loading.delete(documentId));
        loading.set(documentId, load);
      }
      return load;
    };
    // One document per statement: a large library loads in many short statements that other
    // requests' statements can run between, instead of one that holds the database for seconds.
    // The next document's statement is already asked for while this thread parses the last one's
    // postings (the database's work and this thread's then overlap), never more than that ahead.
    // The look-ahead's own promise is kept here: once it has settled it leaves `loading`, and
    // asking again would read the document twice (on PostgreSQL it can finish before its turn).
    let ahead: { id: string; load: Promise<void> } | undefined;
    for (const [k, d] of missing.entries()) {
      const load = ahead?.id === d.id ? ahead.load : startLoad(d);
      const next = missing[k + 1];
      ahead = next ? { id: next.id, load: startLoad(next) } : undefined;
      ahead?.load.catch(() => {}); // its failure is met when its turn comes
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

  /**
   * After a document's postings are loaded, its chunks' text follows in the background, a page at
   * a time (other requests' statements run between pages), when the asker's whole library fits the
   * text budget (a 10 MB upload does): then its questions ask the database nothing after their
   * first read. A larger library's text is kept only as its chunks win. Once per loaded
   * generation, so libraries that together exceed the budget do not keep evicting each other.
   */
  const preloads = new Map<string, { generation: number; done: Promise<void> }>();
  function preloadTexts(documentId: string, generation: number, chunkCount: number): Promise<void> {
    const known = preloads.get(documentId);
    if (known?.generation === generation) return known.done;
    if (chunkCount === 0) return Promise.resolve();
    const done = (async () => {
      try {
        for (let from = 0; from < chunkCount; from += PRELOAD_PAGE) {
          const rows = await repo.readChunkTexts(db, documentId, from, PRELOAD_PAGE);
          // Replaced or deleted meanwhile: the next load of its postings preloads the new generation.
          if (rows.length === 0 || rows.some((r) => r.chunkGeneration !== generation)) return;
          for (const row of rows) texts.set(row);
        }
      } catch (err) {
        preloads.delete(documentId); // tried again with the next load of its postings
        logger?.warn(`could not preload the text of document ${documentId}`, err instanceof Error ? err.message : err);
      }
    })();
    preloads.set(documentId, { generation, done });
    return done;
  }

  /**
   * The winners' text by "document:index": from memory under the generation this request's first
   * read found, the rest read (and kept) in one statement that checks the asker's right again.
   */
  async function winningTexts(
    scope: repo.ChunkScope,
    documents: repo.UsableDocument[],
    candidates: { documentId: string; chunkIndex: number }[],
  ): Promise<Map<string, ChunkText>> {
    const generation = new Map(documents.map((d) => [d.id, d.chunkGeneration]));
    const found = new Map<string, ChunkText>();
    const missing: typeof candidates = [];
    for (const c of candidates) {
      const text = texts.get(c.documentId, generation.get(c.documentId)!, c.chunkIndex);
      if (text) found.set(`${c.documentId}:${c.chunkIndex}`, text);
      else missing.push(c);
    }
    for (const row of await repo.readCandidates(db, scope, missing)) {
      texts.set(row);
      found.set(`${row.documentId}:${row.chunkIndex}`, row);
    }
    return found;
  }

  const questionWords = (scope: repo.ChunkScope, text: string) => repo.questionAndDocuments(db, scope, ...questionText(text));

  return {
    questionWords,
    async search(scope, text, limit, known) {
      const { terms, nameTerms, documents } = known ?? (await questionWords(scope, text));
      // Only documents whose text is not stored yet: one whose vectors are still being made (or
      // that is being re-chunked) already answers by its words, so "I cannot draw on them" would be untrue.
      const documentsNotReady = documents.filter((d) => d.notReady && d.chunkCount === 0).length;
      if (terms.length === 0 || documents.length === 0) {
        return { hits: [], documentsNotReady, documents: documents.length, terms: terms.length, absentTerms: terms.length, absentNames: nameTerms.length, ceiling: 0 };
      }
      const indexed = await postingsFor(documents);
      const looked = lookUpTerms(indexed, terms);
      const { ceiling, absent } = queryStats(indexed, terms, looked);
      const absentNames = nameTerms.length > 0 ? queryStats(indexed, nameTerms).absent : 0;
      const candidates = rankCandidates(indexed, terms, limit, looked);
      const rows = await winningTexts(scope, documents, candidates);
      const hits = candidates.flatMap((c) => {
        const row = rows.get(`${c.documentId}:${c.chunkIndex}`);
        if (!row) return [];
        const { chunkId, documentId, fileName, chunkIndex, content } = row;
        return [{ chunkId, documentId, fileName, chunkIndex, content, score: c.score, coverage: c.matched / terms.length }];
      });
      return { hits, documentsNotReady, documents: documents.length, terms: terms.length, absentTerms: absent, absentNames, ceiling };
    },

    async warm(scope, known) {
      const documents = known ?? (await repo.questionAndDocuments(db, scope, '')).documents;
      await postingsFor(documents);
      await Promise.all(documents.map((d) => preloads.get(d.id)?.done));
    },
  };
}
