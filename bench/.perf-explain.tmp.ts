import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startTestServer } from '../src/server/test-support/test-server';
import { seedChunks, seededRandom, syntheticChunk, syntheticVocabulary, zipfSampler } from './chat-bench-support';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-prof-'));
const server = await startTestServer({ dataDir, env: { LOG_LEVEL: 'warn' } });
const random = seededRandom(42); const vocabulary = syntheticVocabulary(5000, random); const pick = zipfSampler(vocabulary.length, random);
const owner = await server.user();
const pid = (await owner.post('/api/personalities', { name: 'Bench', description: 'x' })).body.personality.id as string;
await seedChunks(server.database.db, pid, Array.from({ length: 10000 }, () => syntheticChunk(vocabulary, pick, 1000)));
await server.database.db.execute(sql`update personalities set sharing_type = 'public', is_public = true where id = ${pid}`);
await server.database.db.execute(sql`analyze`);
const db = server.database.db;
const some = (await db.execute(sql`select document_id, chunk_index from personality_document_chunks order by random() limit 30`)).rows as any[];
const list = sql.join(some.map((k) => sql`(${k.document_id}::uuid, ${k.chunk_index}::int)`), sql`, `);
const q = sql`explain analyze with usable as (
    select d.id, d.chunk_count, d.chunk_generation, d.processing_state
    from personality_documents d join personalities p on p.id = d.personality_id
    where d.personality_id = ${pid} and p.is_public and (not d.is_private))
    select c.id, c.document_id, d.file_name, c.chunk_index, c.content
    from personality_document_chunks c join usable u on u.id = c.document_id join personality_documents d on d.id = c.document_id
    where (c.document_id, c.chunk_index) in (${list})`;
for (let i = 0; i < 3; i++) { const r = await db.execute(q); if (i === 2) console.log((r.rows as any[]).map((x) => x['QUERY PLAN']).join('\n')); }
const t = performance.now(); for (let i = 0; i < 20; i++) await db.execute(sql`select c.id, c.content from personality_document_chunks c where (c.document_id, c.chunk_index) in (${list})`); console.log('plain IN x20', ((performance.now() - t) / 20).toFixed(2), 'ms');
await server.close(); fs.rmSync(dataDir, { recursive: true, force: true }); process.exit(0);
