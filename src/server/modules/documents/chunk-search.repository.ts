// Retrieval over a personality's chunks, for conversations: full-text ranking everywhere, nearest
// neighbours by embedding where pgvector exists. Both filter inside the SQL by who is asking: the
// personality must be visible to them, and a private document counts only for its owner.
// The embeddings table is not in the drizzle migrations (pgvector may be missing): it is created
// at start-up by ensureVectorSchema when the database has the extension.
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { DbOrTx } from '../../jobs/jobs.repository';
import { personalities } from '../../db/schema/personalities';
import { visibleTo } from '../personalities/personalities.repository';

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

/** Chunks nearest to `embedding` (cosine), for the model that produced it. Empty without pgvector. */
export async function nearestChunks(
  db: Database,
  hasVector: boolean,
  q: ChunkQuery & { embedding: number[]; model: string },
): Promise<ChunkHit[]> {
  if (!hasVector || q.embedding.length === 0) return [];
  const vector = toVectorLiteral(q.embedding);
  const result = await run(db, sql`
    select c.id as chunk_id, c.document_id, d.file_name, c.chunk_index, c.content, 1 - (e.embedding <=> ${vector}::vector) as score
    from personality_chunk_embeddings e
    join personality_document_chunks c on c.id = e.chunk_id
    join personality_documents d on d.id = c.document_id
    join ${personalities} on ${personalities.id} = e.personality_id
    where e.personality_id = ${q.personalityId}
      and e.model = ${q.model}
      and vector_dims(e.embedding) = ${q.embedding.length}
      and ${askerFilter(q.viewerId)}
    order by e.embedding <=> ${vector}::vector
    limit ${q.limit}`);
  return toHits(result.rows as Row[]);
}

/** Creates the embeddings table when pgvector is there (idempotent; safe from several processes). */
export async function ensureVectorSchema(db: Database): Promise<void> {
  const statements = [
    sql`create table if not exists personality_chunk_embeddings (
      chunk_id uuid primary key references personality_document_chunks(id) on delete cascade,
      document_id uuid not null references personality_documents(id) on delete cascade,
      personality_id uuid not null references personalities(id) on delete cascade,
      model text not null,
      embedding vector not null)`,
    sql`create index if not exists personality_chunk_embeddings_personality_idx on personality_chunk_embeddings (personality_id, model)`,
    sql`create index if not exists personality_chunk_embeddings_document_idx on personality_chunk_embeddings (document_id)`,
  ];
  for (const statement of statements) {
    try {
      await db.execute(statement);
    } catch (err) {
      // Two processes starting together race on "if not exists"; the other one created it.
      await db.execute(statement).catch(() => {
        throw err;
      });
    }
  }
}

export interface EmbeddingRow {
  chunkId: string;
  documentId: string;
  personalityId: string;
  model: string;
  embedding: number[];
}

export async function insertEmbeddings(tx: DbOrTx, rows: EmbeddingRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map((r) => sql`(${r.chunkId}, ${r.documentId}, ${r.personalityId}, ${r.model}, ${toVectorLiteral(r.embedding)}::vector)`),
    sql`, `,
  );
  await tx.execute(sql`
    insert into personality_chunk_embeddings (chunk_id, document_id, personality_id, model, embedding)
    values ${values}
    on conflict (chunk_id) do update set model = excluded.model, embedding = excluded.embedding`);
}

export async function countEmbeddings(db: Database, hasVector: boolean, documentId: string): Promise<number> {
  if (!hasVector) return 0;
  const result = await run(db, sql`select count(*)::int as n from personality_chunk_embeddings where document_id = ${documentId}`);
  return Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
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
function toVectorLiteral(v: number[]): string {
  return `[${v.map((x) => (Number.isFinite(x) ? Number(x.toPrecision(8)) : 0)).join(',')}]`;
}
