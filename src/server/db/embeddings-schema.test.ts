// The embeddings table follows the server: pgvector's column where the extension exists, float32
// bytea where it does not, and a bytea table is rebuilt as pgvector once the extension appears
// (its documents are then re-embedded: they show up as missing vectors).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './client';
import { ensureEmbeddingsTable } from './embeddings-schema';
import { documentsMissingEmbeddings, insertEmbeddings, nearestChunks } from '../modules/documents/chunk-search.repository';
import { createScratchDatabase } from '../test-support/test-server';

let handle: DatabaseHandle;
let dropScratch: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const scratch = adminUrl ? await createScratchDatabase(adminUrl) : undefined;
  dropScratch = scratch?.drop;
  handle = await openDatabase({ databaseUrl: scratch?.databaseUrl });
});
afterAll(async () => {
  await handle?.close();
  await dropScratch?.();
});

const columnType = async () =>
  (
    (await handle.db.execute(
      sql`select format_type(atttypid, atttypmod) as t from pg_attribute where attrelid = 'personality_chunk_embeddings'::regclass and attname = 'embedding'`,
    )) as unknown as { rows: { t: string }[] }
  ).rows[0]!.t;

async function seedOneChunk(): Promise<{ personalityId: string; documentId: string; chunkId: string }> {
  const db = handle.db;
  await db.execute(sql`insert into "user" (id, name, email) values ('u1', 'U', 'u1@example.com') on conflict do nothing`);
  const p = (await db.execute(sql`insert into personalities (user_id, name) values ('u1', 'Ada') returning id`)) as unknown as { rows: { id: string }[] };
  const personalityId = p.rows[0]!.id;
  const d = (await db.execute(
    sql`insert into personality_documents (personality_id, file_name, chunk_count) values (${personalityId}, 'notes.txt', 1) returning id`,
  )) as unknown as { rows: { id: string }[] };
  const documentId = d.rows[0]!.id;
  const c = (await db.execute(
    sql`insert into personality_document_chunks (document_id, personality_id, chunk_index, content) values (${documentId}, ${personalityId}, 0, 'The engine computes.') returning id`,
  )) as unknown as { rows: { id: string }[] };
  return { personalityId, documentId, chunkId: c.rows[0]!.id };
}

describe('the embeddings table', () => {
  it('is made at start-up for the store the server allows, and vectors written to it are found by cosine', async () => {
    expect(handle.vectorStore).toBe(handle.hasVector ? 'pgvector' : 'bytea');
    expect(await columnType()).toBe(handle.hasVector ? 'vector' : 'bytea');
    const { personalityId, documentId, chunkId } = await seedOneChunk();
    await insertEmbeddings(handle.db, handle.vectorStore, [{ chunkId, documentId, personalityId, model: 'm', embedding: [0.6, 0.8, 0] }]);
    const hits = await nearestChunks(handle.db, handle.vectorStore, { personalityId, viewerId: 'u1', embedding: [0.8, 0.6, 0], model: 'm', limit: 3 });
    expect(hits).toHaveLength(1);
    expect(hits[0]!.score).toBeCloseTo(0.96, 5);
  });

  it('as bytea, is rebuilt as pgvector once the extension is there, and its documents count as missing vectors', async (ctx) => {
    if (!handle.hasVector) ctx.skip('this server has no pgvector to move to (the PGlite run has it)');
    const db = handle.db;
    await db.execute(sql`drop table personality_chunk_embeddings`);
    expect(await ensureEmbeddingsTable(db, false)).toBe('bytea');
    expect(await columnType()).toBe('bytea');
    const rows = (await db.execute(sql`select id, document_id, personality_id from personality_document_chunks limit 1`)) as unknown as {
      rows: { id: string; document_id: string; personality_id: string }[];
    };
    const r = rows.rows[0]!;
    await insertEmbeddings(db, 'bytea', [{ chunkId: r.id, documentId: r.document_id, personalityId: r.personality_id, model: 'm', embedding: [1, 0, 0] }]);
    expect(await nearestChunks(db, 'bytea', { personalityId: r.personality_id, viewerId: 'u1', embedding: [1, 0, 0], model: 'm', limit: 1 })).toHaveLength(1);
    expect(await documentsMissingEmbeddings(db, 'm')).toEqual([]);

    expect(await ensureEmbeddingsTable(db, true)).toBe('pgvector');
    expect(await columnType()).toBe('vector');
    expect(await documentsMissingEmbeddings(db, 'm')).toEqual([r.document_id]);
    // Running it again changes nothing.
    expect(await ensureEmbeddingsTable(db, true)).toBe('pgvector');
  });
});
