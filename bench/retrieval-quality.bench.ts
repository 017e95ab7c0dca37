// Retrieval quality: `npx tsx bench/retrieval-quality.bench.ts`.
// Three documents of our own and 30 questions (bench/retrieval-corpus.ts), chunked by the real
// chunker and searched by the real retriever on an in-memory PGlite. For each question, the
// passage that holds its answer is the chunk containing the answer phrase; we report recall@1,
// recall@5 and MRR, full-text only and hybrid with the fake embedder (tests/fakes: a hashed
// bag-of-words vector, so "hybrid" here measures the fusion, not a semantic model), at the default
// chunk size and at a finer one, and again with 2,000 distractor chunks beside the documents.
// Prints figures; never fails on them.
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/server/db/client';
import { chunkText } from '../src/server/modules/documents/chunker';
import { ensureVectorSchema, insertEmbeddings } from '../src/server/modules/documents/chunk-search.repository';
import { createRetriever, pgVectorSearch, type Retriever } from '../src/server/modules/conversations/retrieval';
import { loadConfig } from '../src/server/config';
import { fakeEmbedding } from '../tests/fakes/openai-fake';
import { insertDocumentWithChunks, seedChunks, seededRandom, syntheticChunk, syntheticVocabulary, zipfSampler } from './chat-bench-support';
import { corpus, questions } from './retrieval-corpus';

const MODEL = 'fake-embedding';
const config = loadConfig({ NODE_ENV: 'test' });

interface Scores {
  recall1: number;
  recall5: number;
  mrr: number;
}

async function seedPersonality(db: Database, name: string): Promise<string> {
  await db.execute(sql`insert into "user" (id, name, email) values (${name}, ${name}, ${`${name}@bench.local`}) on conflict do nothing`);
  const res = (await db.execute(
    sql`insert into personalities (user_id, name, sharing_type, is_public) values (${name}, ${name}, 'public', true) returning id`,
  )) as unknown as { rows: { id: string }[] };
  return res.rows[0]!.id;
}

async function seedCorpus(db: Database, personalityId: string, chunkSize: number): Promise<number> {
  let total = 0;
  for (const doc of corpus) {
    const chunks = chunkText(doc.text, { size: chunkSize, overlap: Math.min(config.documents.chunkOverlap, Math.floor(chunkSize / 2)) });
    await insertDocumentWithChunks(db, personalityId, doc.fileName, chunks);
    total += chunks.length;
  }
  return total;
}

async function embedAll(db: Database, personalityId: string): Promise<void> {
  const rows = (await db.execute(
    sql`select id, document_id, content from personality_document_chunks where personality_id = ${personalityId}`,
  )) as unknown as { rows: { id: string; document_id: string; content: string }[] };
  for (let i = 0; i < rows.rows.length; i += 500) {
    await insertEmbeddings(
      db,
      rows.rows.slice(i, i + 500).map((r) => ({ chunkId: r.id, documentId: r.document_id, personalityId, model: MODEL, embedding: fakeEmbedding(r.content) })),
    );
  }
}

async function score(retriever: Retriever, personalityId: string): Promise<Scores> {
  let hit1 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  for (const q of questions) {
    const { passages } = await retriever.search({ personalityId, viewerId: null, text: q.question, limit: 5 });
    const rank = passages.findIndex((p) => p.content.includes(q.answerPhrase));
    if (rank === 0) hit1++;
    if (rank >= 0) {
      hit5++;
      reciprocal += 1 / (rank + 1);
    }
  }
  const n = questions.length;
  return { recall1: hit1 / n, recall5: hit5 / n, mrr: reciprocal / n };
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`.padStart(5);

async function main() {
  const handle = await openDatabase({});
  const db = handle.db;
  await ensureVectorSchema(db);
  const embedder = { model: MODEL, embed: async (texts: string[]) => texts.map((t) => fakeEmbedding(t)) };
  const fullText = createRetriever(db, undefined);
  const hybrid = createRetriever(db, pgVectorSearch(db, embedder));

  console.log(`retrieval quality: ${questions.length} questions over ${corpus.length} documents (recall@1, recall@5, MRR)`);
  const random = seededRandom(7);
  const vocabulary = syntheticVocabulary(5000, random);
  const pick = zipfSampler(vocabulary.length, random);
  for (const chunkSize of [config.documents.chunkSize, 400]) {
    for (const distractors of [0, 2000]) {
      const id = await seedPersonality(db, `bench-${chunkSize}-${distractors}`);
      const chunks = await seedCorpus(db, id, chunkSize);
      if (distractors > 0) await seedChunks(db, id, Array.from({ length: distractors }, () => syntheticChunk(vocabulary, pick, chunkSize)));
      await embedAll(db, id);
      const ft = await score(fullText, id);
      const hy = await score(hybrid, id);
      const label = `chunk ${chunkSize} chars, ${chunks} document chunks + ${distractors} distractors`;
      console.log(`  ${label}`);
      console.log(`    full-text:             recall@1 ${pct(ft.recall1)}  recall@5 ${pct(ft.recall5)}  MRR ${ft.mrr.toFixed(2)}`);
      console.log(`    hybrid (fake embedder): recall@1 ${pct(hy.recall1)}  recall@5 ${pct(hy.recall5)}  MRR ${hy.mrr.toFixed(2)}`);
    }
  }
  await handle.close();
}

await main();
