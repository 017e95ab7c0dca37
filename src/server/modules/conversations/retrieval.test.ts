// Retrieval: only this personality's chunks, private documents only for the owner, filtered in
// SQL; hybrid (0.5 x BM25 share + 0.5 x cosines) with the fake embedder, on
// whichever vector store the database has (pgvector on PGlite, float32 bytea on Debian's PostgreSQL);
// full-text when no embedding model is configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, startTestServer, type TestServer } from '../../test-support/test-server';
import { loadConfig } from '../../config';
import { systemClock } from '../../lib/clock';
import { candidateVectors, insertEmbeddings } from '../documents/chunk-search.repository';
import { fakeEmbedding } from '../../../../tests/fakes/openai-fake';
import type { ChunkHit } from '../documents/chunk-search.repository';
import { createConversationsModule } from './conversations.module';
import { asFirstPerson, createRetriever, looksUnanswerable, nearDuplicate, exactVectorSearch, type Retriever } from './retrieval';
import { packSentenceVectors } from '../documents/sentence-vectors';
import { sentences } from '../../ai/offline/text-match';
import { createPersonality, makePublic, seedDocument } from './conversations.test-support';
import { replaceChunks, setPrivacy } from '../documents/documents.repository';
import { personalityDocuments } from '../../db/schema/documents';
import { eq, sql } from 'drizzle-orm';
import * as repo from './conversations.repository';
import { createLexicalSearch, questionColumns } from './lexical-search';
import { loadPostings, nearestWithVectors, questionAndDocuments, readQuestionAndDocuments } from './retrieval.repository';
import { parsePostings, postingsOf } from './lexical-index';
import { createVectorIndex } from './vector-index';

let server: TestServer;
let ownerId: string;
let strangerId: string;
let adaId: string;
let otherId: string;
beforeAll(async () => {
  server = await startTestServer();
  const owner = await server.user();
  const stranger = await server.user();
  ownerId = owner.id;
  strangerId = stranger.id;
  adaId = await createPersonality(owner, 'Ada');
  otherId = await createPersonality(owner, 'Charles');
  await makePublic(server.database.db, adaId);
  await makePublic(server.database.db, otherId);
  const db = server.database.db;
  await seedDocument(db, { personalityId: adaId, fileName: 'public.txt', chunks: ['The engine computes Bernoulli numbers.', 'Poetry and science.'] });
  await seedDocument(db, { personalityId: adaId, fileName: 'diary.txt', chunks: ['Private diary: the engine keeps me awake.'], isPrivate: true });
  await seedDocument(db, { personalityId: otherId, fileName: 'charles.txt', chunks: ['My difference engine was never finished.'] });
});
afterAll(async () => {
  await server?.close();
});

const names = (passages: { fileName: string; chunkIndex: number }[]) => passages.map((p) => `${p.fileName}#${p.chunkIndex}`).sort();

async function searchAs(retriever: Retriever, viewerId: string | null, text = 'engine', personalityId = adaId) {
  return (await retriever.search({ personalityId, viewerId, text, limit: 5 })).passages;
}

describe('retrieval', () => {
  it("the chat's first read, made in its access check's statement, finds what the search's own would, for each asker", async () => {
    const retriever = createRetriever(server.database.db, undefined);
    for (const viewerId of [ownerId, strangerId, null]) {
      const scope = { personalityId: adaId, viewerId };
      const found = await repo.findVisibleWithHistory(server.database.db, { ...scope, conversationId: null, limit: 1, columns: questionColumns(scope, 'The engine?') });
      const known = readQuestionAndDocuments(found!.extra);
      // The private diary is among the documents only for the owner.
      expect(known.documents).toHaveLength(viewerId === ownerId ? 2 : 1);
      const withKnown = await retriever.search({ ...scope, text: 'The engine?', limit: 5, known });
      expect(withKnown).toEqual(await retriever.search({ ...scope, text: 'The engine?', limit: 5 }));
    }
  });

  it("returns only this personality's chunks, and private documents only to the owner", async () => {
    const retriever = createRetriever(server.database.db, undefined);
    expect(retriever.mode).toBe('full-text');
    expect(names(await searchAs(retriever, ownerId))).toEqual(['diary.txt#0', 'public.txt#0']);
    expect(names(await searchAs(retriever, strangerId))).toEqual(['public.txt#0']);
    expect(names(await searchAs(retriever, null))).toEqual(['public.txt#0']);
    expect(names(await searchAs(retriever, null, 'engine', otherId))).toEqual(['charles.txt#0']);
    // Any of the words, best first; a question of stop words only finds nothing.
    const ranked = await searchAs(retriever, null, 'Which numbers did the engine compute?');
    expect(ranked[0]!.fileName).toBe('public.txt');
    // "% match" is the ranking score: BM25 over the highest BM25 the question's words could reach.
    expect(ranked[0]!.similarity).toBeGreaterThan(0.3);
    expect(ranked[0]!.similarity).toBeLessThanOrEqual(1);
    expect(ranked.map((p) => p.similarity)).toEqual([...ranked.map((p) => p.similarity)].sort((a, b) => b - a));
    expect(await searchAs(retriever, null, 'what is it that you were')).toEqual([]);
  });

  it('counts documents still being processed, private ones only for the owner, and searches nothing for who may not see', async () => {
    const db = server.database.db;
    const owner = await server.user();
    const id = await createPersonality(owner, 'Busy');
    await seedDocument(db, { personalityId: id, fileName: 'ready.txt', chunks: ['The engine hums.'] });
    await seedDocument(db, { personalityId: id, fileName: 'queued.txt', chunks: [], processingState: 'queued' });
    await seedDocument(db, { personalityId: id, fileName: 'failed.txt', chunks: [], processingState: 'failed' });
    await seedDocument(db, { personalityId: id, fileName: 'secret.txt', chunks: [], processingState: 'processing', isPrivate: true });
    // Its text is stored and its vectors are being made: already searched by its words, so not "not ready".
    await seedDocument(db, { personalityId: id, fileName: 'embedding.txt', chunks: ['The boiler engine rattles.'], processingState: 'processing' });
    const retriever = createRetriever(db, undefined);
    const asOwner = await retriever.search({ personalityId: id, viewerId: owner.id, text: 'engine', limit: 5 });
    expect(asOwner.documentsNotReady).toBe(2);
    expect(names(asOwner.passages).sort()).toEqual(['embedding.txt#0', 'ready.txt#0']);
    // Not visible to a stranger or anonymous (private personality): nothing, even called directly.
    expect(await retriever.search({ personalityId: id, viewerId: strangerId, text: 'engine', limit: 5 })).toMatchObject({ passages: [], documentsNotReady: 0 });
    expect(await retriever.search({ personalityId: id, viewerId: null, text: 'engine', limit: 5 })).toMatchObject({ passages: [], documentsNotReady: 0 });
    await makePublic(db, id);
    const asVisitor = await retriever.search({ personalityId: id, viewerId: null, text: 'nothing matches', limit: 5 });
    // No word of it is in the documents: nothing, and the documents cannot answer it.
    expect(asVisitor).toMatchObject({ passages: [], documentsNotReady: 1, unanswerable: true });
  });

  it('never answers from chunks held in memory once they are replaced, made private or deleted', async () => {
    const db = server.database.db;
    const owner = await server.user();
    const id = await createPersonality(owner, 'Changing');
    await makePublic(db, id);
    const docId = await seedDocument(db, { personalityId: id, fileName: 'notes.txt', chunks: ['The lighthouse keeper kept a log.'] });
    const retriever = createRetriever(db, undefined);
    const search = (text: string, viewerId: string | null = null) => retriever.search({ personalityId: id, viewerId, text, limit: 5 });
    expect(names((await search('lighthouse')).passages)).toEqual(['notes.txt#0']);

    // Reprocessed: the index in memory is for the old chunks and must not be used.
    await db.transaction((tx) => replaceChunks(tx, { id: docId, personalityId: id }, ['A windmill ground the grain.', 'Flour for bread.']));
    expect((await search('lighthouse')).passages).toEqual([]);
    expect(names((await search('windmill grain')).passages)).toEqual(['notes.txt#0']);
    // The same position, a new chunk: its own text, never the old chunk's held in memory.
    expect((await search('windmill grain')).passages[0]!.content).toBe('A windmill ground the grain.');

    // Made private: gone for everyone but the owner, though its postings are still in memory.
    await setPrivacy(db, id, docId, true);
    expect((await search('windmill')).passages).toEqual([]);
    expect(names((await search('windmill', owner.id)).passages)).toEqual(['notes.txt#0']);

    // Deleted: gone.
    await db.delete(personalityDocuments).where(eq(personalityDocuments.id, docId));
    expect((await search('windmill', owner.id)).passages).toEqual([]);
  });

  it("builds a document's postings from the database's own tsvectors: every word, chunk and count PostgreSQL indexed", async () => {
    const db = server.database.db;
    const owner = await server.user();
    const id = await createPersonality(owner, 'Quoted');
    const repeated = Array.from({ length: 300 }, () => 'engine').join(' ');
    const docId = await seedDocument(db, {
      personalityId: id,
      fileName: 'odd.txt',
      chunks: [
        "It's O'Brien's engine; the engine's engine.",
        String.raw`Saved in C:\Users\ada\notes and /srv/data\x, see http://example.com/a'b?q=1.`,
        '',
        `${repeated} and numbers 3.14 1,000 café naïve`,
      ],
    });
    const row = await loadPostings(db, docId);
    const postings = parsePostings(row!.postings, row!.chunkGeneration, row!.chunkCount);
    const built = postings.terms.flatMap((term) => {
      const [start, end] = postingsOf(postings, term);
      return Array.from({ length: end - start }, (_, k) => `${term} ${postings.chunks[start + k]} ${postings.tf[start + k]}`);
    });
    // What PostgreSQL itself says is in each chunk's tsvector (counts capped at 255 in memory).
    const reference = await rows<{ entry: string }>(
      server,
      sql`select t.lexeme || ' ' || c.chunk_index || ' ' || least(coalesce(array_length(t.positions, 1), 1), 255) as entry
        from personality_document_chunks c, unnest(c.tsv) t where c.document_id = ${docId}`,
    );
    expect(built.sort()).toEqual(reference.map((r) => r.entry).sort());
    // A URL's path keeps its quote ('/a''b?q=1.' in the tsvector's text).
    expect(built.some((e) => e.includes("'"))).toBe(true);
    expect(postings.lengths[3]).toBeGreaterThan(255);
  });

  it("answers from the chunks' text held in memory once warmed, and from the database again when they are replaced", async () => {
    const db = server.database.db;
    const owner = await server.user();
    const id = await createPersonality(owner, 'Remembered');
    await makePublic(db, id);
    const docId = await seedDocument(db, { personalityId: id, fileName: 'log.txt', chunks: ['The harbour froze in January.', 'Gulls nested on the roof.'] });
    const retriever = createRetriever(db, undefined);
    await retriever.warm({ personalityId: id, viewerId: null }); // postings, then the chunks' text
    // Changed under the cache's feet (the product never edits a chunk in place; it replaces them
    // all under a new generation): the answer still shows the text read while warming, so the
    // question read no chunk text from the database.
    await db.execute(sql`update personality_document_chunks set content = 'Edited in place.' where document_id = ${docId}`);
    const warmed = await retriever.search({ personalityId: id, viewerId: null, text: 'harbour froze', limit: 5 });
    expect(warmed.passages.map((p) => p.content)).toEqual(['The harbour froze in January.']);

    await db.transaction((tx) => replaceChunks(tx, { id: docId, personalityId: id }, ['The harbour thawed in March.']));
    const replaced = await retriever.search({ personalityId: id, viewerId: null, text: 'harbour', limit: 5 });
    expect(replaced.passages.map((p) => p.content)).toEqual(['The harbour thawed in March.']);

    // A library larger than the text budget is not preloaded: its winners are read per question.
    const small = createLexicalSearch(db, { textBudgetBytes: 1000 });
    await small.warm({ personalityId: id, viewerId: null });
    await db.execute(sql`update personality_document_chunks set content = 'The harbour, edited in place.' where document_id = ${docId}`);
    const read = await small.search({ personalityId: id, viewerId: null }, 'harbour', 5);
    expect(read.hits.map((h) => h.content)).toEqual(['The harbour, edited in place.']);
  });

  it("warming an asker's scope loads what their first question would (postings, text, sign bits), private documents only for the owner", async () => {
    const base = server.database.db;
    const store = server.database.vectorStore;
    const owner = await server.user();
    const id = await createPersonality(owner, 'Warmed');
    await makePublic(base, id);
    await seedDocument(base, { personalityId: id, fileName: 'open.txt', chunks: ['The lighthouse lamp was lit at dusk.', 'Gales shook the tower.'] });
    await seedDocument(base, { personalityId: id, fileName: 'secret.txt', chunks: ['The lighthouse keeper hid a letter.'], isPrivate: true });
    const chunkRows = await rows<{ id: string; document_id: string; personality_id: string; content: string }>(
      server,
      sql`select id, document_id, personality_id, content from personality_document_chunks where personality_id = ${id}`,
    );
    await insertEmbeddings(
      base,
      store,
      chunkRows.map((r) => ({ chunkId: r.id, documentId: r.document_id, personalityId: r.personality_id, model: 'fake-embedding', embedding: fakeEmbedding(r.content) })),
    );
    const embedder = { model: 'fake-embedding', embed: async (texts: string[]) => texts.map((t) => fakeEmbedding(t)) };
    /** A retriever of its own (empty memory) over a database handle that counts the statements it is asked to run. */
    const fresh = () => {
      let statements = 0;
      const db = new Proxy(base, {
        get(target, key, receiver) {
          if (key === 'execute' || key === 'select' || key === 'insert' || key === 'with') statements++;
          return Reflect.get(target, key, receiver);
        },
      });
      const retriever = createRetriever(db, createVectorIndex(db, store, embedder));
      return {
        retriever,
        /** The statements one question of the owner's runs. */
        async ask(): Promise<number> {
          const before = statements;
          const found = await retriever.search({ personalityId: id, viewerId: owner.id, text: 'lighthouse letter', limit: 5 });
          expect(found.passages.map((p) => p.fileName)).toContain('secret.txt');
          return statements - before;
        },
      };
    };
    // Cold: the first question loads; once its background text preload is done, a question runs only its own statements.
    const cold = fresh();
    const first = await cold.ask();
    let steady = Infinity;
    for (let i = 0; i < 5; i++) {
      steady = Math.min(steady, await cold.ask());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(first).toBeGreaterThan(steady);

    const warmed = fresh();
    await warmed.retriever.warm({ personalityId: id, viewerId: owner.id });
    expect(await warmed.ask()).toBe(steady);

    // Warmed as a visitor: the private document was not theirs to load, so the owner's question still loads it.
    const asVisitor = fresh();
    await asVisitor.retriever.warm({ personalityId: id, viewerId: null });
    expect(await asVisitor.ask()).toBeGreaterThan(steady);
  });

  it("loads a library's postings one document ahead at most: the next statement overlaps the last parse, never the whole library queued", async () => {
    const base = server.database.db;
    const owner = await server.user();
    const id = await createPersonality(owner, 'Shelves');
    for (let i = 0; i < 6; i++) await seedDocument(base, { personalityId: id, fileName: `shelf-${i}.txt`, chunks: [`Shelf ${i} holds atlases.`, `Shelf ${i} holds maps.`] });
    let inFlight = 0;
    let most = 0;
    let loads = 0;
    const db = new Proxy(base, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'execute') return value;
        return (query: Parameters<typeof base.execute>[0]) => {
          // The statement's own words (drizzle's SQL keeps them as string chunks beside the parameters).
          const text = (query as unknown as { queryChunks: { value?: unknown }[] }).queryChunks.map((c) => (Array.isArray(c.value) ? c.value.join('') : '')).join('');
          if (!text.includes('tsv::text')) return value.call(target, query);
          loads++;
          most = Math.max(most, ++inFlight);
          return value.call(target, query).finally(() => inFlight--);
        };
      },
    });
    const search = createLexicalSearch(db);
    await search.warm({ personalityId: id, viewerId: owner.id });
    expect(loads).toBe(6);
    expect(most).toBe(2);
  });

  it('hybrid: scores full-text and nearest vectors together, the score as the match, still private-filtered', async () => {
    const db = server.database.db;
    const chunkRows = (await db.execute(
      (await import('drizzle-orm')).sql`select id, document_id, personality_id, content from personality_document_chunks`,
    )) as unknown as { rows: { id: string; document_id: string; personality_id: string; content: string }[] };
    await insertEmbeddings(
      db,
      server.database.vectorStore,
      chunkRows.rows.map((r) => ({ chunkId: r.id, documentId: r.document_id, personalityId: r.personality_id, model: 'fake-embedding', embedding: fakeEmbedding(r.content) })),
    );
    const embedder = { model: 'fake-embedding', embed: async (texts: string[]) => texts.map((t) => fakeEmbedding(t)) };
    const retriever = createRetriever(db, exactVectorSearch(db, server.database.vectorStore, embedder));
    expect(retriever.mode).toBe('hybrid');
    const asStranger = await searchAs(retriever, strangerId, 'poetry and science');
    expect(asStranger[0]).toMatchObject({ fileName: 'public.txt', chunkIndex: 1 });
    // Identical words: cosine 1 (vector half 0.5) plus half its BM25 share.
    expect(asStranger[0]!.similarity).toBeGreaterThan(0.5);
    expect(asStranger[0]!.similarity).toBeGreaterThan(asStranger[1]?.similarity ?? 0);
    expect(names(asStranger)).not.toContain('diary.txt#0');
    expect(names(await searchAs(retriever, ownerId, 'diary'))).toContain('diary.txt#0');

    // An embedding outage does not silence retrieval: full-text still answers.
    const broken = createRetriever(db, exactVectorSearch(db, server.database.vectorStore, { model: 'x', embed: async () => Promise.reject(new Error('down')) }));
    expect(names(await searchAs(broken, null))).toEqual(['public.txt#0']);
  });

  it("the vector index's one-statement read (pgvector) ranks as its two reads do, and never hands over a chunk the asker may not use", async () => {
    const db = server.database.db;
    const store = server.database.vectorStore;
    // Every chunk's vector (the hybrid test above stores them; run alone, this one does).
    const missing = (await db.execute(
      sql`select c.id, c.document_id, c.personality_id, c.content from personality_document_chunks c
        where not exists (select 1 from personality_chunk_embeddings e where e.chunk_id = c.id and e.model = 'fake-embedding')`,
    )) as unknown as { rows: { id: string; document_id: string; personality_id: string; content: string }[] };
    await insertEmbeddings(
      db,
      store,
      missing.rows.map((r) => ({ chunkId: r.id, documentId: r.document_id, personalityId: r.personality_id, model: 'fake-embedding', embedding: fakeEmbedding(r.content) })),
    );
    const embedder = { model: 'fake-embedding', embed: async (texts: string[]) => texts.map((t) => fakeEmbedding(t)) };
    const index = createVectorIndex(db, store, embedder);
    if (store === 'bytea') {
      // Without pgvector the app computes the cosines: the two reads stay apart.
      expect(index.nearestWithVectors).toBeUndefined();
      return;
    }
    expect(index.nearestWithVectors).toBeDefined();
    const oneRead = createRetriever(db, index);
    const twoReads = createRetriever(db, { ...index, nearestWithVectors: undefined });
    for (const viewerId of [ownerId, strangerId, null]) {
      for (const text of ['engine', 'poetry and science', 'diary keeps me awake', 'numbers']) {
        const one = await oneRead.search({ personalityId: adaId, viewerId, text, limit: 5 });
        const two = await twoReads.search({ personalityId: adaId, viewerId, text, limit: 5 });
        if (text === 'engine') expect(one.passages.length).toBeGreaterThan(0);
        expect(one.passages).toEqual(two.passages);
        expect(one.signals).toEqual(two.signals);
        if (viewerId !== ownerId) expect(names(one.passages)).not.toContain('diary.txt#0');
      }
    }
    // Handed the private diary's chunk as a near candidate, a stranger gets neither its text nor its vectors.
    const diary = (await db.execute(sql`select c.id from personality_document_chunks c join personality_documents d on d.id = c.document_id where d.file_name = 'diary.txt'`)) as unknown as {
      rows: { id: string }[];
    };
    const diaryId = diary.rows[0]!.id;
    const query = fakeEmbedding('Private diary: the engine keeps me awake.');
    const asStranger = await nearestWithVectors(db, { personalityId: adaId, viewerId: strangerId }, [diaryId], [], query, 'fake-embedding', 5);
    expect(asStranger).toEqual({ nearest: [], vectors: [] });
    const asOwner = await nearestWithVectors(db, { personalityId: adaId, viewerId: ownerId }, [diaryId], [], query, 'fake-embedding', 5);
    expect(asOwner.nearest.map((n) => n.chunkId)).toEqual([diaryId]);
    expect(asOwner.nearest[0]!.score).toBeCloseTo(1, 5);
    expect(asOwner.vectors.map((v) => v.chunkId)).toEqual([diaryId]);
    // The full-text candidates' vectors come in the same read, as candidateVectors reads them.
    const publicIds = (await db.execute(
      sql`select c.id from personality_document_chunks c join personality_documents d on d.id = c.document_id where d.file_name = 'public.txt' order by c.chunk_index`,
    )) as unknown as { rows: { id: string }[] };
    const others = publicIds.rows.map((r) => r.id);
    const both = await nearestWithVectors(db, { personalityId: adaId, viewerId: strangerId }, [diaryId], others, query, 'fake-embedding', 5);
    expect(both.nearest).toEqual([]);
    const sorted = (v: { chunkId: string }[]) => [...v].sort((a, b) => a.chunkId.localeCompare(b.chunkId));
    expect(sorted(both.vectors)).toEqual(sorted(await candidateVectors(db, store, others, query, 'fake-embedding')));
    // No near candidates (the documents' vectors not in yet): the full-text candidates' vectors still come.
    expect(sorted((await nearestWithVectors(db, { personalityId: adaId, viewerId: null }, [], others, query, 'fake-embedding', 5)).vectors)).toEqual(sorted(both.vectors));
  });

  it('never compares vectors of another length stored under the same model, whether their length was stored or (older rows) not', async () => {
    const db = server.database.db;
    const store = server.database.vectorStore;
    const owner = await server.user();
    const graceId = await createPersonality(owner, 'Grace');
    await makePublic(db, graceId);
    const wide = await seedDocument(db, { personalityId: graceId, fileName: 'wide.txt', chunks: ['Compilers translate languages.', 'The navy and the harbour.'] });
    const narrow = await seedDocument(db, { personalityId: graceId, fileName: 'narrow.txt', chunks: ['Compilers translate languages too.'] });
    const chunkRows = (await db.execute(sql`select id, document_id, content from personality_document_chunks where personality_id = ${graceId}`)) as unknown as {
      rows: { id: string; document_id: string; content: string }[];
    };
    // 128 dimensions (the SIMD distance pass), and 96 under the same model name (its bits are 3 words, not 4).
    await insertEmbeddings(
      db,
      store,
      chunkRows.rows.map((r) => ({ chunkId: r.id, documentId: r.document_id, personalityId: graceId, model: 'dims-model', embedding: fakeEmbedding(r.content, r.document_id === wide ? 128 : 96) })),
    );
    const stored = (await db.execute(sql`select document_id, embedding_dims from personality_chunk_embeddings where personality_id = ${graceId}`)) as unknown as {
      rows: { document_id: string; embedding_dims: number }[];
    };
    const nameOf = new Map([[wide, 'wide'], [narrow, 'narrow']]);
    expect(stored.rows.map((r) => [nameOf.get(r.document_id), Number(r.embedding_dims)]).sort()).toEqual([['narrow', 96], ['wide', 128], ['wide', 128]]);
    const query = fakeEmbedding('Compilers translate languages.', 128);
    const expectOnlyWide = async () => {
      const index = createVectorIndex(db, store, { model: 'dims-model', embed: async (texts: string[]) => texts.map((t) => fakeEmbedding(t, 128)) });
      const usable = (await questionAndDocuments(db, { personalityId: graceId, viewerId: null }, '')).documents;
      const nearest = await index.nearest({ personalityId: graceId, viewerId: null }, query, 5, usable);
      expect(nearest.map((n) => [n.fileName, n.chunkIndex])).toEqual([['wide.txt', 0], ['wide.txt', 1]]);
      expect(nearest[0]!.score).toBeCloseTo(1, 5);
      if (index.nearestWithVectors) {
        const ids = chunkRows.rows.map((r) => r.id);
        const read = await index.nearestWithVectors({ personalityId: graceId, viewerId: null }, query, 5, usable, ids);
        expect(read.nearest.map((n) => n.fileName)).toEqual(['wide.txt', 'wide.txt']);
        expect(read.vectors.map((v) => v.chunkId).sort()).toEqual(chunkRows.rows.filter((r) => r.document_id === wide).map((r) => r.id).sort());
        expect(read.vectors.find((v) => v.chunkId === read.nearest[0]!.chunkId)!.cosine).toBeCloseTo(1, 5);
      }
      const hybrid = createRetriever(db, index);
      expect((await hybrid.search({ personalityId: graceId, viewerId: null, text: 'navy harbour', limit: 5 })).passages[0]).toMatchObject({ fileName: 'wide.txt', chunkIndex: 1 });
    };
    await expectOnlyWide();
    // Rows stored before the length was: pgvector counts it.
    await db.execute(sql`update personality_chunk_embeddings set embedding_dims = null where personality_id = ${graceId}`);
    await expectOnlyWide();
  });

  it('is hybrid whether or not the database has pgvector; the embedded model is the default; EMBEDDING_MODEL=none turns vectors off', () => {
    const config = loadConfig({ NODE_ENV: 'test', EMBEDDING_MODEL: 'fake-embedding', LLM_BASE_URL: 'http://127.0.0.1:9/v1' });
    const base = { config, db: server.database.db, clock: systemClock, logger: console as never, secret: 's' };
    expect(createConversationsModule({ ...base, vectorStore: 'bytea' }).retriever.mode).toBe('hybrid');
    expect(createConversationsModule({ ...base, vectorStore: 'pgvector' }).retriever.mode).toBe('hybrid');
    // No model configured: the embedded one (loaded lazily, on the first question).
    const noModel = loadConfig({ NODE_ENV: 'test' });
    expect(createConversationsModule({ ...base, config: noModel, vectorStore: server.database.vectorStore }).retriever.mode).toBe('hybrid');
    const off = loadConfig({ NODE_ENV: 'test', EMBEDDING_MODEL: 'none' });
    expect(createConversationsModule({ ...base, config: off, vectorStore: server.database.vectorStore }).retriever.mode).toBe('full-text');
  });

  it('hybrid score: agreement of words and meaning wins, the best sentence counts, near-duplicates are dropped', async () => {
    const db = server.database.db;
    const owner = await server.user();
    const id = await createPersonality(owner, 'Scorer');
    await makePublic(db, id);
    const chunks = [
      'The lighthouse lamp was lit at sunset every evening. The keepers polished the brass.',
      'The lighthouse lamp was lit at sunset every evening. The keepers polished the brass!',
      'Gardening notes: kale and potatoes in the walled garden.',
      'Sunset colours over the harbour and lamp posts in town.',
    ];
    await seedDocument(db, { personalityId: id, fileName: 'log.txt', chunks });
    const rows = (await db.execute(
      (await import('drizzle-orm')).sql`select id, document_id, content from personality_document_chunks where personality_id = ${id} order by chunk_index`,
    )) as unknown as { rows: { id: string; document_id: string; content: string }[] };
    const embed = (t: string) => fakeEmbedding(t);
    await insertEmbeddings(
      db,
      server.database.vectorStore,
      rows.rows.map((r) => ({
        chunkId: r.id,
        documentId: r.document_id,
        personalityId: id,
        model: 'fake-embedding',
        embedding: embed(r.content),
        sentenceEmbeddings: packSentenceVectors(r.content.split(/(?<=[.!])\s/).map(embed)),
      })),
    );
    const retriever = createRetriever(db, exactVectorSearch(db, server.database.vectorStore, { model: 'fake-embedding', embed: async (texts) => texts.map(embed) }));
    const { passages } = await retriever.search({ personalityId: id, viewerId: null, text: 'When was the lighthouse lamp lit?', limit: 5 });
    expect(passages[0]).toMatchObject({ chunkIndex: 0, bestSentence: 0 });
    // Chunk 1 repeats chunk 0 almost word for word: it does not take a second slot.
    expect(passages.map((p) => p.chunkIndex)).not.toContain(1);
    expect(passages.map((p) => p.chunkIndex)).toContain(3);
    expect(passages[0]!.similarity).toBeGreaterThan(passages[1]!.similarity);
  });

  it('the documents cannot answer a question naming what they never mention; a question line is no evidence of an answer', async () => {
    const fullText = createRetriever(server.database.db, undefined);
    const ask = (r: Retriever, text: string, personalityId = adaId) => r.search({ personalityId, viewerId: null, text, limit: 5 });
    // Three of four words match, but the name does not: nothing to quote.
    expect((await ask(fullText, 'Did the engine compute numbers in Paris?')).unanswerable).toBe(true);
    // Her own name is no such subject: the documents need not mention it.
    expect((await ask(fullText, 'Did the engine compute numbers, Ada?')).unanswerable).toBeFalsy();
    const known = await ask(fullText, 'Did the engine compute Bernoulli numbers?');
    expect(known.unanswerable).toBeFalsy();
    expect(known.passages[0]!.fileName).toBe('public.txt');

    const db = server.database.db;
    const owner = await server.user();
    const id = await createPersonality(owner, 'Interviewee');
    await makePublic(db, id);
    const content = 'Q: Which film do you love most?\nA: I never go to the pictures. My nephew rows me round the harbour instead.';
    await seedDocument(db, { personalityId: id, fileName: 'interview.txt', chunks: [content] });
    const row = (await db.execute(
      (await import('drizzle-orm')).sql`select id, document_id from personality_document_chunks where personality_id = ${id}`,
    )) as unknown as { rows: { id: string; document_id: string }[] };
    const embed = (t: string) => fakeEmbedding(t);
    await insertEmbeddings(db, server.database.vectorStore, [
      {
        chunkId: row.rows[0]!.id,
        documentId: row.rows[0]!.document_id,
        personalityId: id,
        model: 'fake-embedding',
        embedding: embed(content),
        sentenceEmbeddings: packSentenceVectors(sentences(content).map(embed)),
      },
    ]);
    const hybrid = createRetriever(db, exactVectorSearch(db, server.database.vectorStore, { model: 'fake-embedding', embed: async (texts) => texts.map(embed) }));
    const result = await ask(hybrid, 'Which film do you love most?', id);
    // The question line repeats the question word for word; the evidence, and the sentence to
    // quote, is the answer that follows it.
    expect(result.passages[0]).toMatchObject({ chunkIndex: 0, bestSentence: 1 });
    expect(result.signals!.bestSentenceCosine!).toBeLessThan(0.5);
  });

  it('reads "you/your" as "I/my", and tells questions the documents cannot answer by their absent words', () => {
    expect(asFirstPerson('Where were you born, and what was your first job?')).toBe('Where was I born, and what was my first job?');
    expect(asFirstPerson('Are you happy? Tell me about yourself.')).toBe('am I happy? Tell me about myself.');
    // Most of the words nowhere in the documents: unanswerable, unless a sentence is close in meaning.
    const q = (terms: number, absentTerms: number, bestSentenceCosine?: number, absentNames = 0) => ({ terms, absentTerms, absentNames, bestSentenceCosine });
    expect(looksUnanswerable(q(3, 3))).toBe(true);
    expect(looksUnanswerable(q(3, 1))).toBe(false);
    expect(looksUnanswerable(q(2, 1, 0.3))).toBe(true);
    expect(looksUnanswerable(q(2, 1, 0.7))).toBe(false);
    expect(looksUnanswerable(q(3, 1, 0.3))).toBe(false);
    expect(looksUnanswerable(q(0, 0))).toBe(false);
    // A name the documents never mention: unanswerable however close the rest of the question is.
    expect(looksUnanswerable(q(3, 1, 0.7, 1))).toBe(true);
    expect(nearDuplicate(new Set(['a', 'b', 'c', 'd', 'e']), new Set(['a', 'b', 'c', 'd', 'e', 'f']))).toBe(true);
    expect(nearDuplicate(new Set(['a', 'b', 'c']), new Set(['x', 'y', 'c']))).toBe(false);
  });
});
