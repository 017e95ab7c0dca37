// The embeddings table (personality_chunk_embeddings), created at start-up beside the migrations
// because its vector column depends on the server: pgvector's `vector` where the extension exists
// (PGlite bundles it; a managed PostgreSQL usually offers it), else `bytea` holding the vector as
// little-endian float32 (Debian's PostgreSQL 15 has no pgvector package). Either way the vectors
// live in the database, survive restarts and are shared by every app process; with bytea, cosine
// is computed in the app over the few candidates the in-memory bit index picked (vector-index.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** How the embedding column stores vectors: pgvector's type, or packed float32 in bytea. */
export type VectorStore = 'pgvector' | 'bytea';

type AnyDatabase = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/**
 * Creates the table for the store the server allows (idempotent; run under the migration lock on
 * PostgreSQL). A table made as bytea before pgvector was installed is recreated as `vector`: its
 * vectors are gone, and start-up re-embeds every document that lacks one (queueMissingEmbeddings).
 * Returns the store the table now uses.
 */
export async function ensureEmbeddingsTable(db: AnyDatabase, pgvector: boolean): Promise<VectorStore> {
  const wanted: VectorStore = pgvector ? 'pgvector' : 'bytea';
  const existing = await currentStore(db);
  if (existing && existing !== wanted) {
    if (wanted === 'bytea') return existing; // unreachable in practice: a vector column needs the extension
    await db.execute(sql`drop table personality_chunk_embeddings`);
  }
  const statements: SQL[] = [
    sql`create table if not exists personality_chunk_embeddings (
      chunk_id uuid primary key references personality_document_chunks(id) on delete cascade,
      document_id uuid not null references personality_documents(id) on delete cascade,
      personality_id uuid not null references personalities(id) on delete cascade,
      model text not null,
      embedding ${sql.raw(wanted === 'pgvector' ? 'vector' : 'bytea')} not null)`,
    sql`create index if not exists personality_chunk_embeddings_personality_idx on personality_chunk_embeddings (personality_id, model)`,
    sql`create index if not exists personality_chunk_embeddings_document_idx on personality_chunk_embeddings (document_id)`,
    // The vectors of the chunk's sentences (sentence-vectors.ts): the best sentence's similarity
    // counts in the ranking and chooses the sentence the offline reply quotes.
    sql`alter table personality_chunk_embeddings add column if not exists sentence_embeddings bytea`,
    // The signs of the vector's components, one bit each (64 bytes for 512 dimensions): the
    // in-memory first pass of nearest-neighbour search (vector-index.ts) reads only these.
    sql`alter table personality_chunk_embeddings add column if not exists embedding_bits bytea`,
    // The vector's length, so a question's vector is compared only with vectors of its length
    // without detoasting each one to ask pgvector (~3 ms of a 100,000-chunk hybrid question on
    // PGlite). Null in rows stored before it; queries fall back to vector_dims for those.
    sql`alter table personality_chunk_embeddings add column if not exists embedding_dims integer`,
  ];
  for (const statement of statements) {
    try {
      await db.execute(statement);
    } catch (err) {
      // PGlite tests and benches call this without the lock; a racing creator made it already.
      await db.execute(statement).catch(() => {
        throw err;
      });
    }
  }
  return wanted;
}

async function currentStore(db: AnyDatabase): Promise<VectorStore | undefined> {
  const result = (await db.execute(sql`
    select format_type(a.atttypid, a.atttypmod) as type
    from pg_attribute a
    where a.attrelid = to_regclass('personality_chunk_embeddings') and a.attname = 'embedding' and not a.attisdropped`)) as unknown as {
    rows: { type: string }[];
  };
  const type = result.rows[0]?.type;
  if (!type) return undefined;
  return type === 'bytea' ? 'bytea' : 'pgvector';
}
