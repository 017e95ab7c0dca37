// SQL for retrieval: ranked full-text search, "documents not ready yet" and document titles,
// always limited to one personality's documents the asker may use. Privacy is decided here, in
// SQL: a private document reaches only the personality's owner. (Nearest-vector search is the
// documents module's, beside the embeddings table it owns: chunk-search.repository.ts.)
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { personalityDocumentChunks as chunks, personalityDocuments as documents } from '../../db/schema/documents';
import { personalities } from '../../db/schema/personalities';
import { visibleTo } from '../personalities/personalities.repository';

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
  /** Sum of the IDF of the question's words the chunk holds. */
  score: number;
  /** Share of the question's words (stemmed) the chunk holds: its "% match". */
  coverage: number;
}

export interface RankedSearch {
  hits: RankedHit[];
  /** Usable documents whose processing is queued or running (see countDocumentsNotReady). */
  documentsNotReady: number;
}

/**
 * Ranked full-text search in one statement, fast on large libraries. Each of the question's
 * words (stemmed, stop words dropped) is looked up in the GIN index on its own, so no chunk's
 * tsvector is read to rank the thousands a common word may match: a chunk scores the sum of the
 * IDF of the words it holds (rare words weigh more, as in BM25), and only the best candidates
 * are read to break ties by cover density (ts_rank_cd). Only this personality's chunks, only
 * while it is visible to the asker, and private documents only for its owner. The same
 * statement counts the documents still being processed (one round trip for both).
 */
export async function rankedFullText(db: Database, scope: ChunkScope, text: string, limit: number): Promise<RankedSearch> {
  const ownerAsks = scope.viewerId === null ? sql`false` : sql`${personalities.userId} = ${scope.viewerId}`;
  const result = await db.execute(sql`
    with terms as (
      select distinct t from unnest(tsvector_to_array(to_tsvector('english', ${text.slice(0, 2000)}))) as t
    ),
    usable as (
      select d.id, d.chunk_count, d.processing_state
      from ${documents} d
      join ${personalities} on ${personalities.id} = d.personality_id
      where d.personality_id = ${scope.personalityId}
        and ${visibleTo(scope.viewerId)}
        and (not d.is_private or ${ownerAsks})
    ),
    hits as (
      select c.id, terms.t
      from terms
      join ${chunks} c on c.tsv @@ quote_literal(terms.t)::tsquery
      join usable u on u.id = c.document_id
      where c.personality_id = ${scope.personalityId}
    ),
    df as (select t, count(*) as n from hits group by t),
    stats as (
      select greatest(coalesce(sum(chunk_count), 0), (select coalesce(max(n), 0) from df), 1)::float8 as total,
        count(*) filter (where processing_state in ('queued', 'processing'))::int as not_ready
      from usable
    ),
    candidates as (
      select h.id, sum(ln((stats.total + 1) / (df.n + 0.5))) as score, count(*) as matched
      from hits h join df using (t) cross join stats
      group by h.id
      order by score desc, h.id
      limit ${Math.max(limit * 4, 20)}
    ),
    ranked as (
      select c.id as chunk_id, c.document_id, d.file_name, c.chunk_index, c.content, candidates.score,
        candidates.matched::float8 / greatest((select count(*) from terms), 1) as coverage,
        row_number() over (order by candidates.score desc,
          ts_rank_cd(c.tsv, (select string_agg(quote_literal(t), ' | ') from terms)::tsquery) desc,
          c.document_id, c.chunk_index) as rank
      from candidates
      join ${chunks} c on c.id = candidates.id
      join ${documents} d on d.id = c.document_id
    )
    select ranked.*, stats.not_ready
    from stats left join ranked on ranked.rank <= ${limit}
    order by ranked.rank`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return {
    documentsNotReady: Number(rows[0]?.not_ready ?? 0),
    hits: rows
      .filter((r) => r.chunk_id !== null)
      .map((r) => ({
        chunkId: String(r.chunk_id),
        documentId: String(r.document_id),
        fileName: String(r.file_name),
        chunkIndex: Number(r.chunk_index),
        content: String(r.content),
        score: Number(r.score),
        coverage: Number(r.coverage),
      })),
  };
}

/** File names of the personality's usable documents, for conversation starters. */
export async function documentTitles(db: Database, scope: ChunkScope, limit: number): Promise<string[]> {
  const ownerAsks = scope.viewerId === null ? sql`false` : sql`${personalities.userId} = ${scope.viewerId}`;
  const rows = await db
    .select({ fileName: documents.fileName })
    .from(documents)
    .innerJoin(personalities, eq(personalities.id, documents.personalityId))
    .where(and(eq(documents.personalityId, scope.personalityId), sql`(not ${documents.isPrivate} or ${ownerAsks})`))
    .orderBy(desc(documents.createdAt))
    .limit(limit);
  return rows.map((r) => r.fileName);
}
