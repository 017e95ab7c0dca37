// Retrieval quality: `npm run bench -- retrieval-quality`.
// The evaluation set (bench/retrieval-eval-set.ts: four documents about one person, 51 answerable
// questions and 12 the documents cannot answer; three unrelated documents beside them) is chunked by the real chunker, stored in an
// in-memory PGlite, embedded the way the document job does, and asked through the real retriever
// and the offline responder, in three modes: lexical only (no vectors), hybrid offline (the
// embedded model) and hybrid with the fake embedder (tests/fakes: a hashed bag of words, so it
// measures the scoring, not a semantic model). For each mode it prints recall@1, recall@5 and MRR
// of the answering passage, the share of answerable questions whose offline reply holds the
// answer, how many unanswerable questions the offline reply declined, and how many answerable ones
// it declined wrongly. Prints figures; never fails on them.
import type { VectorStore } from '../src/server/db/embeddings-schema';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/server/db/client';
import { loadConfig } from '../src/server/config';
import { chunkText } from '../src/server/modules/documents/chunker';
import { embedDocumentChunks } from '../src/server/modules/documents/document-embedder';
import { NEAR_SENTENCE, answeringPassages, createRetriever, looksUnanswerable, type RetrievalResult, type Retriever } from '../src/server/modules/conversations/retrieval';
import { createVectorIndex } from '../src/server/modules/conversations/vector-index';
import { composeOfflineReply, isDeclined } from '../src/server/ai/offline/offline-responder';
import type { EmbeddingClient } from '../src/server/ai/embeddings';
import { sharedEmbeddedEmbeddings } from '../src/server/ai/embedded/embedded-embeddings';
import { fakeEmbedding } from '../tests/fakes/openai-fake';
import { insertDocumentWithChunks } from './chat-bench-support';
import { documents, personName, questions } from './retrieval-eval-set';
import { corpus as distractors } from './retrieval-corpus';

const config = loadConfig({ NODE_ENV: 'test' });

interface Scores {
  recall1: number;
  recall5: number;
  mrr: number;
  answered: number;
  declined: number;
  wronglyDeclined: number;
}

async function seedPersonality(db: Database, name: string): Promise<string> {
  await db.execute(sql`insert into "user" (id, name, email) values (${name}, ${name}, ${`${name}@bench.local`}) on conflict do nothing`);
  const res = (await db.execute(
    sql`insert into personalities (user_id, name, sharing_type, is_public) values (${name}, ${personName}, 'public', true) returning id`,
  )) as unknown as { rows: { id: string }[] };
  return res.rows[0]!.id;
}

async function seedDocuments(db: Database, personalityId: string): Promise<number> {
  let total = 0;
  // Three unrelated first-person documents sit beside hers (a lighthouse keeper's, a baker's, a
  // radio amateur's): births, fathers' trades, wives and first jobs that are not hers.
  for (const doc of [...documents, ...distractors]) {
    const chunks = chunkText(doc.text, { size: config.documents.chunkSize, overlap: config.documents.chunkOverlap });
    await insertDocumentWithChunks(db, personalityId, doc.fileName, chunks);
    total += chunks.length;
  }
  return total;
}

async function embedAll(db: Database, store: VectorStore, personalityId: string, embeddings: EmbeddingClient): Promise<void> {
  const rows = (await db.execute(sql`select id from personality_documents where personality_id = ${personalityId}`)) as unknown as { rows: { id: string }[] };
  for (const r of rows.rows) await embedDocumentChunks(db, store, embeddings, r.id, 16);
}

type Asked = { q: (typeof questions)[number]; result: RetrievalResult };

async function ask(retriever: Retriever, personalityId: string): Promise<Asked[]> {
  const out: Asked[] = [];
  for (const q of questions) {
    const result = await retriever.search({ personalityId, viewerId: null, text: q.question, limit: 5 });
    if (process.env.BENCH_SIGNALS) {
      const g = result.signals;
      console.log(`SIG\t${q.passage ? 'A' : 'U'}\t${g?.terms}\t${g?.absentTerms}\t${g?.absentNames}\t${g?.bestSentenceCosine?.toFixed(3)}\t${q.question}`);
    }
    out.push({ q, result });
  }
  return out;
}

/** Scores the answers; `nearSentence` replays the unanswerable decision at another threshold. */
function score(asked: Asked[], nearSentence?: number): Scores {
  let hit1 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  let answered = 0;
  let declined = 0;
  let wronglyDeclined = 0;
  let answerable = 0;
  for (const { q, result } of asked) {
    const unanswerable = nearSentence !== undefined && result.signals ? looksUnanswerable(result.signals, nearSentence) : result.unanswerable;
    // As the chat service does: nothing is quoted when retrieval finds the documents cannot answer.
    const reply = composeOfflineReply({ personalityName: personName, question: q.question, passages: answeringPassages({ ...result, unanswerable }) });
    if (!q.passage) {
      if (isDeclined(reply)) declined++;
      continue;
    }
    answerable++;
    const rank = result.passages.findIndex((p) => p.content.includes(q.passage!));
    if (rank === 0) hit1++;
    if (rank >= 0) {
      hit5++;
      reciprocal += 1 / (rank + 1);
    }
    if (isDeclined(reply)) wronglyDeclined++;
    else if (reply.toLowerCase().includes((q.answer ?? q.passage).toLowerCase())) answered++;
    if (process.env.BENCH_VERBOSE && nearSentence === undefined) console.log(`${rank}\t${q.question}\n${reply}\n`);
  }
  return { recall1: hit1 / answerable, recall5: hit5 / answerable, mrr: reciprocal / answerable, answered: answered / answerable, declined, wronglyDeclined };
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`.padStart(4);
const unanswerable = questions.filter((q) => !q.passage).length;

function print(label: string, s: Scores) {
  console.log(
    `  ${label.padEnd(26)} recall@1 ${pct(s.recall1)}  recall@5 ${pct(s.recall5)}  MRR ${s.mrr.toFixed(2)}  answer in reply ${pct(s.answered)}  ` +
      `unanswerable declined ${s.declined}/${unanswerable}  answerable declined ${s.wronglyDeclined}`,
  );
}

async function main() {
  const handle = await openDatabase({});
  const db = handle.db;
  const fake: EmbeddingClient = { model: 'fake-embedding', embed: async (texts) => texts.map((t) => fakeEmbedding(t)) };
  const embedded = sharedEmbeddedEmbeddings();
  console.log(
    `retrieval quality: ${questions.length - unanswerable} answerable + ${unanswerable} unanswerable questions over ${documents.length} documents + ${distractors.length} distractors ` +
      `(chunk ${config.documents.chunkSize}/${config.documents.chunkOverlap})`,
  );
  const modes: { label: string; embeddings?: EmbeddingClient }[] = [
    { label: 'lexical only' },
    { label: 'hybrid offline (embedded)', embeddings: embedded },
    { label: 'hybrid (fake embedder)', embeddings: fake },
  ];
  for (const mode of modes) {
    const id = await seedPersonality(db, `bench-${mode.label.replace(/\W+/g, '-')}`);
    const chunks = await seedDocuments(db, id);
    const started = performance.now();
    if (mode.embeddings) await embedAll(db, handle.vectorStore, id, mode.embeddings);
    const embedMs = performance.now() - started;
    const retriever = createRetriever(db, mode.embeddings ? createVectorIndex(db, handle.vectorStore, mode.embeddings) : undefined);
    const asked = await ask(retriever, id);
    print(mode.label, score(asked));
    if (mode.embeddings) console.log(`    (${chunks} chunks embedded in ${(embedMs / 1000).toFixed(1)} s)`);
    if (mode.embeddings === embedded) {
      // The trade-off the decline threshold makes (the product uses NEAR_SENTENCE).
      for (const t of [0.3, 0.325, 0.35, 0.375, 0.4, 0.425, 0.45, 0.475]) {
        const s = score(asked, t);
        console.log(`    near-sentence ${t.toFixed(3)}${t === NEAR_SENTENCE ? ' (used)' : '        '}  unanswerable declined ${s.declined}/${unanswerable}  answerable declined ${s.wronglyDeclined}  answer in reply ${pct(s.answered)}`);
      }
    }
  }
  await embedded.close();
  await handle.close();
}

await main();
