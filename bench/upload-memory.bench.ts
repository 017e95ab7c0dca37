// Upload memory benchmark: `npm run bench -- upload-memory`.
// Starts the real server as a child process with document jobs off (so only the upload itself is
// measured, not transcription) and a loopback fake speech-to-text service (audio uploads need one),
// then sends BENCH_UPLOADS (4) audio documents of 19 MB at once, and the same count of 9 MB text
// documents at once. Prints the server's resident memory before each round and the highest seen
// during it (sampled every 10 ms): a server that held each file whole would grow by at least the
// bytes in flight. Never fails on a figure.
import { createClient } from '../src/server/test-support/test-server';
import { memoryOf, startServerProcess } from './server-process';
import { startFakeOpenAI } from '../tests/fakes/openai-fake';
import { toneWav16 } from '../src/server/modules/voice/voice.test-support';

const MB = 1024 * 1024;
const uploads = Number(process.env.BENCH_UPLOADS ?? 4);

const fake = await startFakeOpenAI();
const server = await startServerProcess({ JOB_CONCURRENCY: '0', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench' });
try {
  const client = createClient(server.url);
  await client.signUp('bench@example.com', 'bench-pass-123');
  await client.signIn('bench@example.com', 'bench-pass-123');
  const pid = (await client.post('/api/personalities', { name: 'Bench' })).body.personality.id as string;
  const wav = toneWav16(600); // 16 kHz mono: 19.2 MB
  const text = Buffer.from('The keeper logged every storm in a green ledger. '.repeat(190_000)); // 9.1 MB

  const rows: string[] = [];
  for (const [label, route, field, data] of [
    ['19 MB audio', 'documents/audio', 'file', wav],
    ['9 MB text', 'documents', 'files', text],
  ] as const) {
    const before = memoryOf(server.pid);
    // VmHWM keeps the start-up peak, so the round's own peak is sampled from VmRSS.
    let roundPeak = before.rssMb;
    const sampler = setInterval(() => (roundPeak = Math.max(roundPeak, memoryOf(server.pid).rssMb)), 10);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: uploads }, async (_, i) => {
        const form = new FormData();
        form.append(field, new Blob([new Uint8Array(data)]), `${label.replace(/\W+/g, '-')}-${i}.${field === 'file' ? 'wav' : 'txt'}`);
        const res = await client.raw(`/api/personalities/${pid}/${route}`, { method: 'POST', body: form });
        return res.status;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (answers.some((s) => s >= 300)) throw new Error(`an upload failed: ${answers.join(', ')}`);
    const inFlight = (uploads * data.length) / MB;
    rows.push(
      `| ${uploads} x ${label} at once | ${inFlight.toFixed(0)} MB | ${seconds.toFixed(1)} s | ${before.rssMb.toFixed(0)} MB | ${roundPeak.toFixed(0)} MB | ${(roundPeak - before.rssMb).toFixed(0)} MB |`,
    );
  }
  console.log(`\nUpload memory (server: child process, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, files in DATA_DIR, jobs off)\n`);
  console.log('| uploads | bytes in flight | seconds | server RSS before | highest RSS during | growth |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await server.stop();
  await fake.close();
}
