// Retrieval at scale: `npm run bench -- retrieval-scale`.
// One personality with 100,000 chunks (synthetic Zipf-distributed prose, ~1,000 characters, in
// documents of 1,000 chunks) on PGlite (pgvector bundled), and on PostgreSQL too when
// TEST_DATABASE_URL or DATABASE_URL names a server (with pgvector if it has it; Debian's has not,
// so its vectors are float32 bytea scored in the app). BENCH_DATABASES=pglite or =postgres runs one. It times the retriever's search (what a chat question waits for
// before its first word), full-text only and hybrid (512-dimension vectors with sentence vectors,
// as the embedded model stores them; the question's vector is given, so the figure is the
// database and ranking work: the embedded model adds its own ~25 ms per question, printed apart).
// Prints p50/p95; target p95 < 50 ms. Never fails on a figure.
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/server/db/client';
import type { VectorStore } from '../src/server/db/embeddings-schema';
import { createRetriever, type Retriever } from '../src/server/modules/conversations/retrieval';
import { createVectorIndex } from '../src/server/modules/conversations/vector-index';
import { createScratchDatabase } from '../src/server/test-support/test-server';
import { vacuumEmbedded } from '../src/server/jobs/embedded-vacuum';
import { fmt, percentile, seedChunkVectors, seedChunks, seededRandom, syntheticChunk, syntheticVocabulary, unitVector, zipfSampler } from './chat-bench-support';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const QUERIES = 200;
const MODEL = 'bench-512';

async function seed(db: Database, store: VectorStore): Promise<string> {
  const random = seededRandom(11);
  const vocabulary = syntheticVocabulary(20_000, random);
  const pick = zipfSampler(vocabulary.length, random);
  await db.execute(sql`insert into "user" (id, name, email) values ('scale', 'scale', 'scale@bench.local') on conflict do nothing`);
  const res = (await db.execute(
    sql`insert into personalities (user_id, name, sharing_type, is_public) values ('scale', 'Scale', 'public', true) returning id`,
  )) as unknown as { rows: { id: string }[] };
  const personalityId = res.rows[0]!.id;
  const t = performance.now();
  for (let i = 0; i < CHUNKS; i += 10_000) {
    const batch = Array.from({ length: Math.min(10_000, CHUNKS - i) }, () => syntheticChunk(vocabulary, pick, 1000));
    await seedChunks(db, personalityId, batch, 1000);
  }
  console.log(`  seeded ${CHUNKS} chunks in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  const t2 = performance.now();
  await seedChunkVectors(db, store, personalityId, MODEL, random);
  console.log(`  stored ${CHUNKS} chunk vectors (+6 sentence vectors each) in ${((performance.now() - t2) / 1000).toFixed(0)} s`);
  return personalityId;
}

async function time(retriever: Retriever, personalityId: string, questions: string[]): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    await retriever.search({ personalityId, viewerId: null, text: questions[i % questions.length]!, limit: 5 });
    samples.push(performance.now() - t);
  }
  return samples;
}

async function run(label: string, databaseUrl: string | undefined) {
  const handle = await openDatabase({ databaseUrl });
  const db = handle.db;
  console.log(`${label} (${handle.kind}, vectors: ${handle.vectorStore === 'pgvector' ? 'pgvector' : 'float32 bytea, cosine in the app'})`);
  const personalityId = await seed(db, handle.vectorStore);
  const random = seededRandom(5);
  const vocabulary = syntheticVocabulary(20_000, seededRandom(11));
  const questions = Array.from({ length: 50 }, () => `What about ${vocabulary[200 + Math.floor(random() * 5000)]} and ${vocabulary[100 + Math.floor(random() * 10000)]}?`);
  const report = (name: string, samples: number[]) =>
    console.log(`  ${name.padEnd(10)} p50 ${fmt(percentile(samples, 0.5))}  p95 ${fmt(percentile(samples, 0.95))}  (n=${samples.length}; target p95 < 50 ms: ${percentile(samples, 0.95) < 50 ? 'met' : 'NOT met'})`);
  const lexical = createRetriever(db, undefined);
  const warmStarted = performance.now();
  await lexical.warm({ personalityId, viewerId: null });
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(`  full-text index loaded in ${fmt(performance.now() - warmStarted)} (process RSS ${rss.toFixed(0)} MB)`);
  await time(lexical, personalityId, questions.slice(0, 5));
  report('full-text', await time(lexical, personalityId, questions));
  const query = unitVector(random);
  // The product's vector side (in-memory sign bits, exact re-ranking of 100 in SQL or the app), with the question's vector given.
  const vectors = createVectorIndex(db, handle.vectorStore, { model: MODEL, embed: async (texts: string[]) => texts.map(() => query) });
  const hybrid = createRetriever(db, vectors);
  const warmStart = performance.now();
  await hybrid.search({ personalityId, viewerId: null, text: questions[0]!, limit: 5 });
  console.log(`  hybrid first question (loads the sign bits): ${fmt(performance.now() - warmStart)}`);
  await time(hybrid, personalityId, questions.slice(0, 5));
  report('hybrid', await time(hybrid, personalityId, questions));
  if (handle.kind === 'pglite') {
    // What the embedded database's housekeeping does within its first hour (embedded-vacuum.ts):
    // the tables' sizes are known to the planner from then on.
    const t = performance.now();
    await vacuumEmbedded(db, { everything: true });
    console.log(`  after housekeeping's vacuum (${fmt(performance.now() - t)}):`);
    report('full-text', await time(lexical, personalityId, questions));
    report('hybrid', await time(hybrid, personalityId, questions));
  }
  await handle.close();
}

async function main() {
  console.log(`retrieval at scale: one personality, ${CHUNKS} chunks, ${QUERIES} questions one after another`);
  const only = process.env.BENCH_DATABASES;
  if (!only || only.includes('pglite')) await run('PGlite', undefined);
  const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (adminUrl && (!only || only.includes('postgres'))) {
    const scratch = await createScratchDatabase(adminUrl);
    try {
      await run('PostgreSQL', scratch.databaseUrl);
    } finally {
      await scratch.drop();
    }
  }
}

await main();
