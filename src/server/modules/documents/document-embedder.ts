// Embeds a document's chunks, batch by batch, off the request path (the document job calls it once
// the chunks are stored: the document is searchable by its words from then on, and by meaning once
// its vectors are in). Only chunks without a vector from this model are embedded, so a re-run, a
// resumed job or a change of model picks up where things stand. Each chunk's sentences are embedded
// with it (retrieval counts the best sentence's similarity, and the offline reply quotes around
// it). Vectors go to the database, with the model that made them.
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { EmbeddingClient } from '../../ai/embeddings';
import { sentences } from '../../ai/offline/text-match';
import { insertEmbeddings } from './chunk-search.repository';
import type { VectorStore } from '../../db/embeddings-schema';
import { packSentenceVectors } from './sentence-vectors';

/** Sentences of one chunk embedded at most (a chunk of ~1,000 characters rarely has more than 20). */
const MAX_SENTENCES = 48;

export interface EmbedProgress {
  done: number;
  total: number;
}

/**
 * Returns how many chunks of the document now have a vector from `embeddings.model`, and whether
 * it stopped early because `shouldPause` (asked after each batch) said so.
 */
export async function embedDocumentChunks(
  db: Database,
  store: VectorStore,
  embeddings: EmbeddingClient,
  documentId: string,
  batchSize: number,
  opts: { signal?: AbortSignal; onProgress?: (p: EmbedProgress) => Promise<void> | void; shouldPause?: () => Promise<boolean> } = {},
): Promise<{ embedded: number; paused: boolean }> {
  const head = rowsOf(
    await db.execute(sql`
      select d.personality_id, d.chunk_count,
        (select count(*)::int from personality_chunk_embeddings e where e.document_id = d.id and e.model = ${embeddings.model}) as done
      from personality_documents d where d.id = ${documentId}`),
  )[0];
  if (!head) return { embedded: 0, paused: false };
  const personalityId = String(head.personality_id);
  const total = Number(head.chunk_count);
  let done = Number(head.done);
  for (;;) {
    opts.signal?.throwIfAborted();
    const batch = rowsOf(
      await db.execute(sql`
        select c.id, c.content from personality_document_chunks c
        where c.document_id = ${documentId}
          and not exists (select 1 from personality_chunk_embeddings e where e.chunk_id = c.id and e.model = ${embeddings.model})
        order by c.chunk_index
        limit ${batchSize}`),
    ).map((r) => ({ id: String(r.id), content: String(r.content) }));
    if (batch.length === 0) break;
    // One request per batch: the chunks, then each chunk's sentences (a one-sentence chunk's
    // sentence vector is its own).
    const split = batch.map((c) => sentences(c.content).slice(0, MAX_SENTENCES));
    const texts = [...batch.map((c) => c.content), ...split.flatMap((s) => (s.length > 1 ? s : []))];
    const vectors = await embeddings.embed(texts, opts.signal);
    let at = batch.length;
    await insertEmbeddings(
      db,
      store,
      batch.map((c, i) => {
        const own = split[i]!.length > 1 ? vectors.slice(at, (at += split[i]!.length)) : split[i]!.length === 1 ? [vectors[i]!] : [];
        return { chunkId: c.id, documentId, personalityId, model: embeddings.model, embedding: vectors[i]!, sentenceEmbeddings: packSentenceVectors(own) };
      }),
    );
    done += batch.length;
    await opts.onProgress?.({ done, total });
    if (batch.length === batchSize && (await opts.shouldPause?.())) return { embedded: done, paused: true };
  }
  return { embedded: done, paused: false };
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}
