// Retrieval over a personality's chunks, for conversations: full-text ranking everywhere, nearest
// neighbours by embedding. Both filter inside the SQL by who is asking: the personality must be
// visible to them, and a private document counts only for its owner. The embeddings table is not
// in the drizzle migrations (its vector column depends on pgvector): it is created at start-up by
// ensureEmbeddingsTable (db/embeddings-schema.ts), and every vector function here takes its store.
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { DbOrTx } from '../../jobs/jobs.repository';
import { personalities } from '../../db/schema/personalities';
import { visibleTo } from '../personalities/personalities.repository';
import type { VectorStore } from '../../db/embeddings-schema';
import { cosine, fromBase64, packFloat32 } from './float-vectors';

export interface ChunkHit {
  chunkId: string;
  documentId: string;
  fileName: string;
  /** 0-based position of the chunk in its document. */
  chunkIndex: number;
  content: string;
  /** Full-text: ts_rank_cd (higher is better). Vector: cosine similarity 0-1. */
  score: number;
}

export interface ChunkQuery {
  personalityId: string;
  /** The asker (null: anonymous). */
  viewerId: string | null;
  limit: number;
}

function askerFilter(viewerId: string | null): SQL {
  const usable = viewerId ? sql`(not d.is_private or ${personalities.userId} = ${viewerId})` : sql`(not d.is_private)`;
  return sql`${visibleTo(viewerId)} and ${usable}`;
}

type Row = { chunk_id: string; document_id: string; file_name: string; chunk_index: number; content: string; score: number };

function toHits(rows: Row[]): ChunkHit[] {
  return rows.map((r) => ({
    chunkId: r.chunk_id,
    documentId: r.document_id,
    fileName: r.file_name,
    chunkIndex: Number(r.chunk_index),
    content: r.content,
    score: Number(r.score),
  }));
}

/**
 * Chunks ranked by full-text match with any of the query's words (stemmed, stop words dropped),
 * best first. A query with no searchable word returns nothing.
 */
export async function searchChunksFullText(db: Database, q: ChunkQuery & { query: string }): Promise<ChunkHit[]> {
  const result = await run(db, sql`
    with query as (
      select (select string_agg(quote_literal(lexeme), ' | ') from unnest(to_tsvector('english', ${q.query.slice(0, 2000)})))::tsquery as tsq
    )
    select c.id as chunk_id, c.document_id, d.file_name, c.chunk_index, c.content, ts_rank_cd(c.tsv, query.tsq) as score
    from personality_document_chunks c
    join personality_documents d on d.id = c.document_id
    join ${personalities} on ${personalities.id} = c.personality_id
    cross join query
    where query.tsq is not null
      and c.personality_id = ${q.personalityId}
      and c.tsv @@ query.tsq
      and ${askerFilter(q.viewerId)}
    order by score desc, c.document_id, c.chunk_index
    limit ${q.limit}`);
  return toHits(result.rows as Row[]);
}

/**
 * Chunks nearest to `embedding` (cosine, exact, over every vector of the personality from that
 * model), best first. With pgvector the database scores them; with bytea, the app does. Retrieval
 * itself goes through the bit index (vector-index.ts); this exact scan is its reference.
 */
export async function nearestChunks(
  db: Database,
  store: VectorStore,
  q: ChunkQuery & { embedding: number[]; model: string },
): Promise<ChunkHit[]> {
  if (q.embedding.length === 0) return [];
  if (store === 'bytea') {
    const rows = (
      await run(db, sql`
        select e.chunk_id, encode(e.embedding, 'base64') as embedding
        from personality_chunk_embeddings e
        join personality_documents d on d.id = e.document_id
        join ${personalities} on ${personalities.id} = e.personality_id
        where e.personality_id = ${q.personalityId}
          and e.model = ${q.model}
          and length(e.embedding) = ${q.embedding.length * 4}
          and ${askerFilter(q.viewerId)}`)
    ).rows as { chunk_id: string; embedding: string }[];
    const best = rows
      .map((r) => ({ chunkId: String(r.chunk_id), score: cosine(fromBase64(r.embedding), q.embedding) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, q.limit);
    if (best.length === 0) return [];
    const scores = new Map(best.map((b) => [b.chunkId, b.score]));
    const result = await run(db, sql`
      select c.id as chunk_id, c.document_id, d.file_name, c.chunk_index, c.content, 0 as score
      from personality_document_chunks c join personality_documents d on d.id = c.document_id
      where c.id in (${sql.join(
        best.map((b) => sql`${b.chunkId}::uuid`),
        sql`, `,
      )})`);
    return toHits(result.rows as Row[])
      .map((h) => ({ ...h, score: scores.get(h.chunkId) ?? 0 }))
      .sort((a, b) => b.score - a.score);
  }
  const vector = toCosineQueryLiteral(q.embedding);
  const result = await run(db, sql`
    select c.id as chunk_id, c.document_id, d.file_name, c.chunk_index, c.content, 1 - (e.embedding <=> ${vector}::vector) as score
    from personality_chunk_embeddings e
    join personality_document_chunks c on c.id = e.chunk_id
    join personality_documents d on d.id = c.document_id
    join ${personalities} on ${personalities.id} = e.personality_id
    where e.personality_id = ${q.personalityId}
      and e.model = ${q.model}
      and ${hasDimensions(q.embedding.length)}
      and ${askerFilter(q.viewerId)}
    order by e.embedding <=> ${vector}::vector
    limit ${q.limit}`);
  return toHits(result.rows as Row[]);
}

export interface EmbeddingRow {
  chunkId: string;
  documentId: string;
  personalityId: string;
  model: string;
  embedding: number[];
  /** The chunk's sentence vectors, packed (sentence-vectors.ts). */
  sentenceEmbeddings?: Buffer | null;
}

export async function insertEmbeddings(tx: DbOrTx, store: VectorStore, rows: EmbeddingRow[]): Promise<void> {
  if (rows.length === 0) return;
  const vectorValue = (v: number[]) =>
    store === 'pgvector' ? sql`${toVectorLiteral(v)}::vector` : sql`decode(${packFloat32(v).toString('base64')}, 'base64')`;
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.chunkId}, ${r.documentId}, ${r.personalityId}, ${r.model}, ${vectorValue(r.embedding)}, ${
          r.sentenceEmbeddings && r.sentenceEmbeddings.length > 0 ? sql`decode(${r.sentenceEmbeddings.toString('base64')}, 'base64')` : sql`null`
        }, decode(${signBits(r.embedding).toString('base64')}, 'base64'), ${r.embedding.length})`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    insert into personality_chunk_embeddings (chunk_id, document_id, personality_id, model, embedding, sentence_embeddings, embedding_bits, embedding_dims)
    values ${values}
    on conflict (chunk_id) do update set model = excluded.model, embedding = excluded.embedding,
      sentence_embeddings = excluded.sentence_embeddings, embedding_bits = excluded.embedding_bits, embedding_dims = excluded.embedding_dims`);
}

/**
 * The embeddings row (aliased `e` in the statement) has a vector of `dims` components, pgvector
 * store: the stored length, or for rows written before it was stored, pgvector's count (which
 * detoasts the vector). pgvector's `<=>` throws on vectors of different lengths.
 */
export function hasDimensions(dims: number): SQL {
  return sql`coalesce(e.embedding_dims, vector_dims(e.embedding)) = ${dims}`;
}

/** One bit per component, set when it is positive (32 components per 4 bytes, little-endian words). */
export function signBits(v: number[]): Buffer {
  const words = new Uint32Array(Math.ceil(v.length / 32));
  v.forEach((x, i) => {
    if (x > 0) words[i >> 5]! |= 1 << (i & 31);
  });
  return Buffer.from(words.buffer);
}

/**
 * A document's sign bits for one model, as one row: chunk ids, chunk positions and the bits
 * concatenated (base64), for the in-memory index. Rows stored before the bits existed get theirs
 * from the vector here.
 */
export async function loadDocumentBits(
  db: Database,
  store: VectorStore,
  documentId: string,
  model: string,
): Promise<{ chunkIds: string[]; chunkIndexes: number[]; bits: Buffer }> {
  // One row (a row per chunk costs PGlite ~30 ms per 1,000 chunks; this, a few).
  const packed = (
    await run(db, sql`
      select string_agg(c.id::text, ',' order by c.chunk_index) as ids, string_agg(c.chunk_index::text, ',' order by c.chunk_index) as indexes,
        encode(string_agg(e.embedding_bits, ''::bytea order by c.chunk_index), 'base64') as bits,
        count(*) filter (where e.embedding_bits is null)::int as missing
      from personality_chunk_embeddings e
      join personality_document_chunks c on c.id = e.chunk_id
      where e.document_id = ${documentId} and e.model = ${model}`)
  ).rows[0] as { ids: string | null; indexes: string | null; bits: string | null; missing: number } | undefined;
  if (!packed?.ids) return { chunkIds: [], chunkIndexes: [], bits: Buffer.alloc(0) };
  if (Number(packed.missing) === 0) {
    return { chunkIds: packed.ids.split(','), chunkIndexes: packed.indexes!.split(',').map(Number), bits: Buffer.from(packed.bits ?? '', 'base64') };
  }
  const result = await run(db, sql`
    select c.id as chunk_id, c.chunk_index, encode(e.embedding_bits, 'base64') as bits,
      case when e.embedding_bits is null then ${store === 'pgvector' ? sql`e.embedding::text` : sql`encode(e.embedding, 'base64')`} end as vector
    from personality_chunk_embeddings e
    join personality_document_chunks c on c.id = e.chunk_id
    where e.document_id = ${documentId} and e.model = ${model}
    order by c.chunk_index`);
  const rows = result.rows as { chunk_id: string; chunk_index: number; bits: string | null; vector: string | null }[];
  const vectorOf = (text: string | null): number[] =>
    store === 'pgvector' ? (JSON.parse(text ?? '[]') as number[]) : Array.from(fromBase64(text ?? ''));
  const parts = rows.map((r) => (r.bits ? Buffer.from(r.bits, 'base64') : signBits(vectorOf(r.vector))));
  return { chunkIds: rows.map((r) => String(r.chunk_id)), chunkIndexes: rows.map((r) => Number(r.chunk_index)), bits: Buffer.concat(parts) };
}

export interface CandidateVectors {
  chunkId: string;
  /** Cosine similarity of the chunk's vector with the query. */
  cosine: number;
  /** The chunk's sentence vectors, packed, or null. */
  sentences: Uint8Array | null;
}

/**
 * For the chunks being ranked: each one's cosine with the query and its sentence vectors, for the
 * model that produced the query vector. Chunks without a vector from that model are absent.
 * (The chunks were already filtered by who is asking; this reads only their vectors.)
 */
export async function candidateVectors(
  db: Database,
  store: VectorStore,
  chunkIds: string[],
  embedding: number[],
  model: string,
  opts: { sentences?: boolean } = {},
): Promise<CandidateVectors[]> {
  if (chunkIds.length === 0 || embedding.length === 0) return [];
  const ids = uuidList(chunkIds);
  const sentences = opts.sentences === false ? sql`null` : sql`encode(e.sentence_embeddings, 'base64')`;
  const readSentences = (r: { sentences: string | null }) => (r.sentences ? Buffer.from(r.sentences, 'base64') : null);
  if (store === 'bytea') {
    const result = await run(db, sql`
      select e.chunk_id, encode(e.embedding, 'base64') as embedding, ${sentences} as sentences
      from personality_chunk_embeddings e
      where e.chunk_id in (${ids}) and e.model = ${model} and length(e.embedding) = ${embedding.length * 4}`);
    return (result.rows as { chunk_id: string; embedding: string; sentences: string | null }[]).map((r) => ({
      chunkId: String(r.chunk_id),
      cosine: cosine(fromBase64(r.embedding), embedding),
      sentences: readSentences(r),
    }));
  }
  const vector = toCosineQueryLiteral(embedding);
  const result = await run(db, sql`
    select e.chunk_id, 1 - (e.embedding <=> ${vector}::vector) as cosine, ${sentences} as sentences
    from personality_chunk_embeddings e
    where e.chunk_id in (${ids})
      and e.model = ${model}
      and ${hasDimensions(embedding.length)}`);
  return (result.rows as { chunk_id: string; cosine: number; sentences: string | null }[]).map((r) => ({
    chunkId: String(r.chunk_id),
    cosine: Number(r.cosine),
    sentences: readSentences(r),
  }));
}

/** Some chunk has a vector from `model` (so questions will be embedded with it). */
export async function hasEmbeddings(db: Database, model: string): Promise<boolean> {
  const result = await run(db, sql`select exists (select 1 from personality_chunk_embeddings where model = ${model}) as found`);
  return Boolean((result.rows[0] as { found: boolean } | undefined)?.found);
}

/** Documents with chunks that have no vector from `model` yet (to embed, or re-embed after a change of model). */
export async function documentsMissingEmbeddings(db: Database, model: string): Promise<string[]> {
  const result = await run(db, sql`
    select d.id from personality_documents d
    where d.chunk_count > 0
      and d.processing_state = 'idle'
      and d.chunk_count > (select count(*) from personality_chunk_embeddings e where e.document_id = d.id and e.model = ${model})
      and exists (select 1 from personality_document_chunks c where c.document_id = d.id)`);
  return (result.rows as { id: string }[]).map((r) => String(r.id));
}

/** Chunk ids as a list of uuid values, for `in (...)`. */
export function uuidList(ids: string[]): SQL {
  return sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
}

/** db.execute's result, typed the same for PGlite and node-postgres (both carry rows). */
async function run(db: DbOrTx, query: SQL): Promise<{ rows: unknown[] }> {
  return (await db.execute(query)) as unknown as { rows: unknown[] };
}

/**
 * pgvector stores 4-byte floats (about 7 significant digits), so 8 digits lose nothing it keeps,
 * and the text sent for each vector is half what full doubles need (less to copy to the database
 * and less garbage: the embedding phase of a 10 MB file made about 100 MB of it).
 */
export function toVectorLiteral(v: number[]): string {
  return `[${v.map((x) => (Number.isFinite(x) ? Number(x.toPrecision(8)) : 0)).join(',')}]`;
}

/** Largest component of a question's vector in its cosine literal: below 2^24, so float4 keeps it exact. */
const COSINE_QUERY_SCALE = 1_000_000;

/**
 * A question's vector for cosines in SQL (`<=>` only), written as integers: a cosine does not change
 * when one side is scaled, and pgvector parses 512 integers in ~0.3 ms on PGlite against ~3.5 ms for
 * the decimals of toVectorLiteral (float parsing in WebAssembly is that slow), once per statement.
 * Scaled so the largest component is 1,000,000: the rounding moves a cosine by about 1e-6.
 * Never for storing: the scaled vector is not the embedding.
 */
export function toCosineQueryLiteral(v: number[]): string {
  let largest = 0;
  for (const x of v) if (Number.isFinite(x)) largest = Math.max(largest, Math.abs(x));
  const scale = largest > 0 ? COSINE_QUERY_SCALE / largest : 0;
  return `[${v.map((x) => (Number.isFinite(x) ? Math.round(x * scale) : 0)).join(',')}]`;
}
