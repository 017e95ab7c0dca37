// SQL for retrieval: the question's words and the documents the asker may use, the postings the
// in-memory full-text index is built from (lexical-index.ts), the winning chunks, and document
// titles; always limited to one personality's documents the asker may use. Privacy is decided
// here, in SQL: a private document reaches only the personality's owner. (Nearest-vector search is the
// documents module's, beside the embeddings table it owns: chunk-search.repository.ts.)
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { personalityDocumentChunks as chunks, personalityDocuments as documents } from '../../db/schema/documents';
import { personalities } from '../../db/schema/personalities';
import { visibleTo } from '../personalities/personalities.repository';
import type { VectorStore } from '../../db/embeddings-schema';
import { cosine, fromBase64 } from '../documents/float-vectors';
import { hasDimensions, toCosineQueryLiteral, uuidList, type CandidateVectors, type ChunkHit } from '../documents/chunk-search.repository';
import type { ChunkTextRow } from './chunk-text-cache';

export interface ChunkScope {
  personalityId: string;
  /** Who is asking; null for an anonymous visitor. */
  viewerId: string | null;
}

export interface RankedHit {
  chunkId: string;
  documentId: string;
  fileName: string;
  chunkIndex: number;
  content: string;
  /** BM25 relevance to the question (see lexical-index.ts). */
  score: number;
  /** Share of the question's words (stemmed) the chunk holds: its "% match". */
  coverage: number;
}

export interface RankedSearch {
  hits: RankedHit[];
  /** The question's searchable words (stemmed, stop words dropped). */
  terms: number;
  /** How many of them occur in none of the documents the asker may use. */
  absentTerms: number;
  /** How many of the names the question mentions (namedWords) occur in none of those documents. */
  absentNames: number;
  /** The highest BM25 possible for this question: scores divided by it fall in 0..1. */
  ceiling: number;
  /** Usable documents whose processing is queued or running (see countDocumentsNotReady). */
  documentsNotReady: number;
  /** Documents the asker may use at all (none: there is nothing to search by meaning either). */
  documents: number;
}

export interface UsableDocument {
  id: string;
  chunkCount: number;
  chunkGeneration: number;
  notReady: boolean;
}

/** The documents of this personality the asker may use, only while the personality is visible to them. */
function usableDocumentsSql(scope: ChunkScope): SQL {
  const ownerAsks = scope.viewerId === null ? sql`false` : sql`${personalities.userId} = ${scope.viewerId}`;
  return sql`
    select d.id, d.chunk_count, d.chunk_generation, d.processing_state
    from ${documents} d
    join ${personalities} on ${personalities.id} = d.personality_id
    where d.personality_id = ${scope.personalityId}
      and ${visibleTo(scope.viewerId)}
      and (not d.is_private or ${ownerAsks})`;
}

export interface QuestionAndDocuments {
  terms: string[];
  nameTerms: string[];
  documents: UsableDocument[];
}

/**
 * The read of questionAndDocuments as three scalar columns (terms, name_terms, documents), so a
 * caller can put it in a statement it runs anyway (the chat: with its access check, issue 19);
 * readQuestionAndDocuments turns them into the result. Every column filters by the asker itself.
 */
export function questionAndDocumentsColumns(scope: ChunkScope, text: string, names = ''): { terms: SQL; name_terms: SQL; documents: SQL } {
  return {
    terms: sql`(select coalesce(array_agg(distinct t), '{}')
      from unnest(tsvector_to_array(to_tsvector('english', ${text.slice(0, 2000)}))) as t)`,
    // The personality's own name is no subject the documents must mention ("Where were you
    // born, Ada?" to a first-person memoir that never names her).
    name_terms: sql`(select coalesce(array_agg(distinct t), '{}')
      from unnest(tsvector_to_array(to_tsvector('english', ${names.slice(0, 500)}))) as t
      where t not in (
        select unnest(tsvector_to_array(to_tsvector('english', p.name))) from personalities p where p.id = ${scope.personalityId}
      ))`,
    // One text, "id count generation state" per document, comma-separated (a row per document
    // would repeat the words; building JSON for a library of 100 documents cost ~0.25 ms of the
    // embedded database's time on every chat message). Every part is not null, and none holds a
    // space or a comma (a uuid, two integers, a processing state).
    documents: sql`(select coalesce(string_agg(u.id::text || ' ' || u.chunk_count || ' ' || u.chunk_generation || ' ' || u.processing_state, ','), '')
      from (${usableDocumentsSql(scope)}) u)`,
  };
}

export function readQuestionAndDocuments(row: Record<string, unknown>): QuestionAndDocuments {
  const listed = row.documents as string;
  return {
    terms: row.terms as string[],
    nameTerms: row.name_terms as string[],
    documents: listed
      ? listed.split(',').map((entry) => {
          const [id, chunkCount, chunkGeneration, state] = entry.split(' ');
          return { id: id!, chunkCount: Number(chunkCount), chunkGeneration: Number(chunkGeneration), notReady: state === 'queued' || state === 'processing' };
        })
      : [],
  };
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Which of `documentIds` the asker may still use (the same rule as retrieval's): a signed preview
 * replayed by "Send Prompt" quotes passages read minutes ago, and a document made private or
 * deleted since must not reach the model or the saved conversation through it.
 */
export async function stillUsableDocuments(db: Database, scope: ChunkScope, documentIds: string[]): Promise<Set<string>> {
  // Compared as uuids (not as text) so the documents' primary key can be used; the ids come from
  // a signed preview, but one that is not a uuid is simply not usable rather than a cast error.
  const wanted = [...new Set(documentIds)].filter((id) => UUID_SHAPE.test(id));
  if (wanted.length === 0) return new Set();
  const result = await db.execute(sql`select u.id::text as id from (${usableDocumentsSql(scope)}) u where u.id in (${uuidList(wanted)})`);
  return new Set(rowsOf(result).map((r) => String(r.id)));
}

/**
 * In one round trip: the question's words as the database indexes them (stemmed, stop words
 * dropped, as to_tsvector('english') does for chunks) and the documents the asker may use.
 */
export async function questionAndDocuments(db: Database, scope: ChunkScope, text: string, names = ''): Promise<QuestionAndDocuments> {
  const c = questionAndDocumentsColumns(scope, text, names);
  const result = await db.execute(sql`select ${c.terms} as terms, ${c.name_terms} as name_terms, ${c.documents} as documents`);
  return readQuestionAndDocuments(rowsOf(result)[0]!);
}

/**
 * What a document's postings are built from: a line per chunk, its position and its tsvector as
 * text ("4 'engin':2,7 'number':3"), the tsvectors the database keeps. The document's generation and chunk count come from the
 * same snapshot, so postings are never filed under a generation they do not belong to. Undefined
 * when the document is gone.
 */
export async function loadPostings(
  db: Database,
  documentId: string,
): Promise<{ chunkGeneration: number; chunkCount: number; postings: string } | undefined> {
  // Each chunk's tsvector as text, all in one row (a row per chunk costs PGlite more than the
  // text); lexical-index.ts inverts them into postings (parsePostings).
  const result = await db.execute(sql`
    select d.chunk_generation, d.chunk_count,
      coalesce((select string_agg(c.chunk_index || ' ' || c.tsv::text, E'\n' order by c.chunk_index)
        from ${chunks} c where c.document_id = d.id), '') as postings
    from ${documents} d
    where d.id = ${documentId}`);
  const row = rowsOf(result)[0];
  return row && { chunkGeneration: Number(row.chunk_generation), chunkCount: Number(row.chunk_count), postings: String(row.postings) };
}

/**
 * The chunks that won the ranking, read with their text, file name and the chunk generation they
 * belong to (the same snapshot, so the chunk text cache files them correctly). The asker's right to
 * each is checked again here, in the same statement, so a document made private a moment ago is
 * not returned.
 */
export async function readCandidates(
  db: Database,
  scope: ChunkScope,
  candidates: { documentId: string; chunkIndex: number }[],
): Promise<ChunkTextRow[]> {
  if (candidates.length === 0) return [];
  // Driven by the wanted keys (a unique-index probe each). Written as "(document, index) in (...)"
  // the planner probed every usable document's index for every key: at 100 documents of 1,000
  // chunks, 17 ms on PGlite instead of about 1.
  const result = await db.execute(sql`
    with usable as (${usableDocumentsSql(scope)}),
    wanted (document_id, chunk_index) as (values ${sql.join(
      candidates.map((k) => sql`(${k.documentId}::uuid, ${k.chunkIndex}::int)`),
      sql`, `,
    )})
    select c.id, c.document_id, d.file_name, d.chunk_generation, c.chunk_index, c.content
    from wanted w
    join ${chunks} c on c.document_id = w.document_id and c.chunk_index = w.chunk_index
    join ${documents} d on d.id = c.document_id
    where c.document_id in (select u.id from usable u)`);
  return rowsOf(result).map(chunkTextRow);
}

/**
 * A page of one document's chunks with their text (chunk positions [from, from + count)), for the
 * chunk text cache's preloading: no asker here, because an entry is only ever served after a
 * request's own read has checked the asker may use the document.
 */
export async function readChunkTexts(db: Database, documentId: string, from: number, count: number): Promise<ChunkTextRow[]> {
  const result = await db.execute(sql`
    select c.id, c.document_id, d.file_name, d.chunk_generation, c.chunk_index, c.content
    from ${chunks} c
    join ${documents} d on d.id = c.document_id
    where c.document_id = ${documentId} and c.chunk_index >= ${from} and c.chunk_index < ${from + count}`);
  return rowsOf(result).map(chunkTextRow);
}

function chunkTextRow(r: Record<string, unknown>): ChunkTextRow {
  return {
    chunkId: String(r.id),
    documentId: String(r.document_id),
    fileName: String(r.file_name),
    chunkGeneration: Number(r.chunk_generation),
    chunkIndex: Number(r.chunk_index),
    content: String(r.content),
  };
}

/** A chunk found near the question, with its text and its exact cosine as the score. */
function readRow(r: Record<string, unknown>, score: number): ChunkHit {
  return {
    chunkId: String(r.id),
    documentId: String(r.document_id),
    fileName: String(r.file_name),
    chunkIndex: Number(r.chunk_index),
    content: String(r.content),
    score,
  };
}

/**
 * The `limit` chunks among `chunkIds` nearest to `embedding` by exact cosine (their vectors from
 * `model`), with their text, in one statement that checks the asker's right to each again. With
 * pgvector the database computes the cosine; with vectors kept as float32 bytea, the app does
 * (a hundred candidates' 2 KB each).
 */
export async function nearestAmong(
  db: Database,
  store: VectorStore,
  scope: ChunkScope,
  chunkIds: string[],
  embedding: number[],
  model: string,
  limit: number,
): Promise<ChunkHit[]> {
  if (chunkIds.length === 0) return [];
  const ids = uuidList(chunkIds);
  if (store === 'bytea') {
    const result = await db.execute(sql`
      with usable as (${usableDocumentsSql(scope)})
      select c.id, c.document_id, d.file_name, c.chunk_index, c.content, encode(e.embedding, 'base64') as embedding
      from personality_chunk_embeddings e
      join ${chunks} c on c.id = e.chunk_id
      join usable u on u.id = c.document_id
      join ${documents} d on d.id = c.document_id
      where e.chunk_id in (${ids}) and e.model = ${model} and length(e.embedding) = ${embedding.length * 4}`);
    return rowsOf(result)
      .map((r) => readRow(r, cosine(fromBase64(String(r.embedding)), embedding)))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }
  const result = await db.execute(sql`
    with usable as (${usableDocumentsSql(scope)}),
    near as (
      select e.chunk_id, 1 - (e.embedding <=> ${toCosineQueryLiteral(embedding)}::vector) as score
      from personality_chunk_embeddings e
      where e.chunk_id in (${ids}) and e.model = ${model} and ${hasDimensions(embedding.length)}
      order by score desc
      limit ${limit}
    )
    select c.id, c.document_id, d.file_name, c.chunk_index, c.content, near.score
    from near
    join ${chunks} c on c.id = near.chunk_id
    join usable u on u.id = c.document_id
    join ${documents} d on d.id = c.document_id
    order by near.score desc`);
  return rowsOf(result).map((r) => readRow(r, Number(r.score)));
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** File names of the personality's usable documents, for conversation starters. */
export async function documentTitles(db: Database, scope: ChunkScope, limit: number): Promise<string[]> {
  const ownerAsks = scope.viewerId === null ? sql`false` : sql`${personalities.userId} = ${scope.viewerId}`;
  const rows = await db
    .select({ fileName: documents.fileName })
    .from(documents)
    .innerJoin(personalities, eq(personalities.id, documents.personalityId))
    .where(and(eq(documents.personalityId, scope.personalityId), sql`(not ${documents.isPrivate} or ${ownerAsks})`))
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(limit);
  return rows.map((r) => r.fileName);
}

export interface NearestWithVectors {
  /** The `limit` nearest among the near candidates, closest first, with their text (the asker's right checked). */
  nearest: ChunkHit[];
  /** Cosine and sentence vectors of those and of the other candidates asked for. */
  vectors: CandidateVectors[];
}

/**
 * nearestAmong and candidateVectors in one statement, for pgvector: the question's vector is parsed
 * once (pgvector's float parsing costs PGlite ~2.5 ms a vector: it was parsed in both statements),
 * one round trip instead of two, and the nearest chunks' rows are read once. `otherIds` are the
 * full-text candidates, already checked against the asker by their own read.
 */
export async function nearestWithVectors(
  db: Database,
  scope: ChunkScope,
  nearIds: string[],
  otherIds: string[],
  embedding: number[],
  model: string,
  limit: number,
): Promise<NearestWithVectors> {
  if (nearIds.length === 0 && otherIds.length === 0) return { nearest: [], vectors: [] };
  const near = nearIds.length > 0 ? uuidList(nearIds) : sql`null::uuid`;
  const others = otherIds.length > 0 ? sql`union select unnest(array[${uuidList(otherIds)}])` : sql``;
  const result = await db.execute(sql`
    with usable as (${usableDocumentsSql(scope)}),
    q as materialized (select ${toCosineQueryLiteral(embedding)}::vector as v),
    near as (
      select e.chunk_id, 1 - (e.embedding <=> q.v) as score
      from personality_chunk_embeddings e, q
      where e.chunk_id in (${near}) and e.model = ${model} and ${hasDimensions(embedding.length)}
      order by score desc
      limit ${limit}
    ),
    near_rows as (
      select c.id, c.document_id, d.file_name, c.chunk_index, c.content, near.score
      from near
      join ${chunks} c on c.id = near.chunk_id
      join usable u on u.id = c.document_id
      join ${documents} d on d.id = c.document_id
    ),
    wanted as (select id as chunk_id from near_rows ${others})
    select e.chunk_id as id, case when n.id is null then 1 - (e.embedding <=> q.v) else n.score end as cosine,
      encode(e.sentence_embeddings, 'base64') as sentences,
      n.document_id, n.file_name, n.chunk_index, n.content, n.score
    from wanted w
    join personality_chunk_embeddings e on e.chunk_id = w.chunk_id and e.model = ${model} and ${hasDimensions(embedding.length)}
    cross join q
    left join near_rows n on n.id = e.chunk_id`);
  const rows = rowsOf(result);
  return {
    nearest: rows
      .filter((r) => r.document_id !== null && r.document_id !== undefined)
      .map((r) => readRow(r, Number(r.score)))
      .sort((a, b) => b.score - a.score),
    vectors: rows.map((r) => ({
      chunkId: String(r.id),
      cosine: Number(r.cosine),
      sentences: r.sentences ? Buffer.from(String(r.sentences), 'base64') : null,
    })),
  };
}
