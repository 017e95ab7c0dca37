// Document ingestion benchmark: `npx tsx bench/ingest.bench.ts`.
// Starts the real server as a child process (PGlite in a fresh DATA_DIR, as `npm start` does),
// uploads through the real multipart API and waits until every document is Ready. Prints seconds
// and MB/s to Ready for a 10 MB plain-text file and for 1,000 small files, with embeddings off
// (EMBEDDING_MODEL=none) and with a zero-latency fake embedding server, and for a text file
// embedded by the embedded model (the offline default: BENCH_EMBEDDED_MB, 1 MB unless set; 10 MB
// takes tens of minutes on 2 cores), plus the server's resident memory idle before the upload
// and its peak (VmHWM). Never fails on time: it reports. BENCH_EMBEDDING_DIMS (768) sets the fake
// vectors' size.
import { createClient, type TestClient } from '../src/server/test-support/test-server';
import { memoryOf, startServerProcess } from './server-process';
import { startFakeOpenAI } from '../tests/fakes/openai-fake';

const MB = 1024 * 1024;
const dims = Number(process.env.BENCH_EMBEDDING_DIMS ?? 768);

const WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they ' +
  'engine loom card number machine memory letter science music poetry mathematics thought analysis future design ' +
  'pattern weaving calculation operation variable column result figure series difference mechanism power nature'
).split(' ');

/** Deterministic prose: sentences of 8-20 words, paragraphs of 3-7 sentences. */
function prose(bytes: number, seed: number): string {
  let x = seed || 1;
  const rand = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const sentences = 3 + Math.floor(rand() * 5);
    const para: string[] = [];
    for (let s = 0; s < sentences; s++) {
      const n = 8 + Math.floor(rand() * 13);
      const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
      words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
      para.push(`${words.join(' ')}.`);
    }
    const p = para.join(' ');
    parts.push(p);
    size += p.length + 2;
  }
  return parts.join('\n\n').slice(0, bytes);
}

async function uploadBatch(client: TestClient, pid: string, files: { name: string; data: string }[]) {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([f.data], { type: 'text/plain' }), f.name);
  const res = await client.raw(`/api/personalities/${pid}/documents`, { method: 'POST', body: form });
  const body = (await res.json()) as { uploaded: number; results: { ok: boolean; error?: string }[] };
  if (res.status !== 200 || body.uploaded !== files.length) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
}

async function waitAllReady(client: TestClient, pid: string, count: number): Promise<void> {
  // The cheap knowledge summary is polled (a list of 1,000 documents every 100 ms would be load the
  // benchmark adds, not ingestion); the full list is read once at the end to check every status.
  for (;;) {
    const summary = (await client.get(`/api/personalities/${pid}/knowledge`)).body as { documents: number; processing: number };
    if (summary.documents === count && summary.processing === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const docs = (await client.get(`/api/personalities/${pid}/documents`)).body.documents as { status: string; error: string | null }[];
  const notReady = docs.find((d) => d.status !== 'ready');
  if (notReady) throw new Error(`a document is ${notReady.status}: ${notReady.error}`);
}

interface Row {
  scenario: string;
  embeddings: string;
  files: number;
  mb: number;
  seconds: number;
  chunks: number;
  baseMb: number;
  peakMb: number;
}

async function scenario(name: string, files: { name: string; data: string }[], embeddings: boolean | 'embedded'): Promise<Row> {
  const fake = embeddings === true ? await startFakeOpenAI({ dimensions: dims }) : undefined;
  const server = await startServerProcess(
    fake ? { LLM_BASE_URL: fake.url, EMBEDDING_MODEL: 'fake-embedding' } : embeddings === 'embedded' ? { EMBEDDING_MODEL: '' } : { EMBEDDING_MODEL: 'none' },
  );
  try {
    const client = createClient(server.url);
    await client.signUp('bench@example.com', 'bench-pass-123');
    await client.signIn('bench@example.com', 'bench-pass-123');
    const pid = (await client.post('/api/personalities', { name: 'Bench' })).body.personality.id as string;
    const base = memoryOf(server.pid);
    const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.data), 0);
    const started = performance.now();
    for (let i = 0; i < files.length; i += 10) await uploadBatch(client, pid, files.slice(i, i + 10));
    await waitAllReady(client, pid, files.length);
    const seconds = (performance.now() - started) / 1000;
    const knowledge = (await client.get(`/api/personalities/${pid}/knowledge`)).body as { chunks: number };
    return {
      scenario: name,
      embeddings: embeddings === 'embedded' ? 'embedded model (512 dims + sentences)' : embeddings ? `fake, ${dims} dims` : 'off',
      files: files.length,
      mb: bytes / MB,
      seconds,
      chunks: knowledge.chunks,
      baseMb: base.rssMb,
      peakMb: memoryOf(server.pid).peakMb,
    };
  } finally {
    await server.stop();
    await fake?.close();
  }
}

const big = [{ name: 'big.txt', data: prose(10 * MB, 7) }];
const small = Array.from({ length: 1000 }, (_, i) => ({ name: `note-${i}.txt`, data: prose(2000 + (i % 7) * 300, i + 1) }));

const rows: Row[] = [];
for (const [name, files] of [
  ['10 MB text file', big],
  ['1,000 small files', small],
] as const) {
  for (const embeddings of [false, true]) {
    process.stdout.write(`running: ${name}, embeddings ${embeddings ? 'on' : 'off'}... `);
    const row = await scenario(name, [...files], embeddings);
    console.log(`${row.seconds.toFixed(1)} s`);
    rows.push(row);
  }
}
const embeddedMb = Number(process.env.BENCH_EMBEDDED_MB ?? 1);
if (embeddedMb > 0) {
  process.stdout.write(`running: ${embeddedMb} MB text file, embedded model... `);
  const row = await scenario(`${embeddedMb} MB text file`, [{ name: 'embedded.txt', data: prose(embeddedMb * MB, 9) }], 'embedded');
  console.log(`${row.seconds.toFixed(1)} s`);
  rows.push(row);
}

console.log(`\nDocument ingestion to Ready (server: child process, ${process.env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : 'PGlite in DATA_DIR'}; 2-core machine)\n`);
console.log('| scenario | embeddings | files | MB | chunks | seconds to Ready | MB/s | server RSS before | server peak RSS |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.scenario} | ${r.embeddings} | ${r.files} | ${r.mb.toFixed(1)} | ${r.chunks} | ${r.seconds.toFixed(1)} | ${(r.mb / r.seconds).toFixed(2)} | ${r.baseMb.toFixed(0)} MB | ${r.peakMb.toFixed(0)} MB |`,
  );
}
const target = rows.find((r) => r.files === 1 && r.embeddings === 'off');
if (target) {
  const embedded = rows.find((r) => r.embeddings.startsWith('embedded'));
  if (embedded) console.log(`\nEmbedded model: ${(embedded.mb / embedded.seconds * 60).toFixed(2)} MB per minute to Ready (10 MB: about ${(10 / (embedded.mb / embedded.seconds) / 60).toFixed(0)} min); server idle RSS before ${embedded.baseMb.toFixed(0)} MB, peak ${embedded.peakMb.toFixed(0)} MB`);
  console.log(`\nTarget: 10 MB to Ready < 10 s without embeddings -> ${target.seconds.toFixed(1)} s; peak RSS < 500 MB -> max ${Math.max(...rows.map((r) => r.peakMb)).toFixed(0)} MB`);
}
