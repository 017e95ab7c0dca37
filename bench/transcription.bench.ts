// Audio documents: a 20-minute speech uploaded to be transcribed (issue 13). Two figures:
//  1. The product's overhead: a 20-minute 8 kHz mono WAV (19.2 MB, under the 20 MB cap) through
//     the real route and document job, with a zero-latency OpenAI-compatible fake as the provider
//     (in a child process, so its work is not counted): upload, split into 10 pieces, transcripts,
//     chunks, until Ready; and the server process's peak RSS meanwhile.
//  2. The embedded recognizer (pocketsphinx, when installed): real-time factor on speech made by
//     the embedded synthesizer (BENCH_SPEECH_SECONDS, default 120 s), through the same transcriber.
// Prints figures; never fails on them.   npx tsx bench/transcription.bench.ts
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../src/server/test-support/test-server';
import { fliteSynthesize } from '../src/server/ai/speech/flite-text-to-speech';
import { findPocketsphinx, createPocketsphinxSpeechToText } from '../src/server/ai/speech/pocketsphinx-speech-to-text';
import { createAudioTranscriber } from '../src/server/modules/documents/audio-transcriber';
import { pcmWav, toMono16k } from '../src/server/ai/speech/audio-file';
const f1 = (n: number) => n.toFixed(1);

if (process.argv[2] === 'fake') {
  const { startFakeOpenAI } = await import('../tests/fakes/openai-fake');
  const fake = await startFakeOpenAI({ audio: { transcript: 'And so the island taught me patience, year after year, in every kind of weather.' } });
  process.send!({ url: fake.url });
} else {
  await overhead();
  await embedded();
  process.exit(0);
}

function toneWav8k(seconds: number): Uint8Array {
  const n = 8000 * seconds;
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 180 * i) / 8000) * 5000), i * 2);
  return pcmWav(data, 8000, 1);
}

async function overhead() {
  const child = fork(fileURLToPath(import.meta.url), ['fake'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const { url } = await new Promise<{ url: string }>((resolve) => child.once('message', (m) => resolve(m as { url: string })));
  const server = await startTestServer({ env: { OPENAI_BASE_URL: url, OPENAI_API_KEY: 'bench', JOB_POLL_MS: '50', LOG_LEVEL: 'warn' } });
  try {
    const owner = await server.user();
    const pid = (await owner.post('/api/personalities', { name: 'Speaker' })).body.personality.id as string;
    const wav = toneWav8k(20 * 60);
    let peak = process.memoryUsage().rss;
    const baseline = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    const form = new FormData();
    form.append('title', '20-minute speech');
    form.append('file', new Blob([new Uint8Array(wav)]), 'speech.wav');
    const res = await owner.raw(`/api/personalities/${pid}/documents/audio`, { method: 'POST', body: form });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    const docId = ((await res.json()) as { document: { id: string } }).document.id;
    const uploaded = performance.now();
    let doc: { status: string; chunkCount: number } | undefined;
    while (!doc || (doc.status !== 'ready' && doc.status !== 'failed')) {
      await new Promise((r) => setTimeout(r, 20));
      doc = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents.find((d: { id: string }) => d.id === docId);
    }
    const done = performance.now();
    clearInterval(sampler);
    console.log(`20-minute speech (8 kHz mono WAV, ${(wav.length / 1024 / 1024).toFixed(1)} MB), zero-latency provider: upload ${f1(uploaded - t0)} ms, then ${doc.status} after ${f1(done - uploaded)} ms (${doc.chunkCount} chunks); ${f1((20 * 60 * 1000) / (done - t0))}x faster than real time; peak RSS ${f1(peak / 1024 / 1024)} MB (+${f1((peak - baseline) / 1024 / 1024)} MB over idle ${f1(baseline / 1024 / 1024)} MB)`);
  } finally {
    await server.close();
    child.kill();
  }
}

async function embedded() {
  const cli = findPocketsphinx();
  if (!cli) {
    console.log('embedded recognizer: pocketsphinx is not installed here (Debian: pocketsphinx pocketsphinx-en-us); skipped');
    return;
  }
  const seconds = Number(process.env.BENCH_SPEECH_SECONDS ?? 120);
  const sentences = [
    'I came to the island in the spring of nineteen eighty four.',
    'The ferry from Oban was late, and the sea was grey and rough.',
    'My first patient was a collie with a thorn in her paw.',
    'We built the surgery with our own hands over two long winters.',
  ];
  const parts: Buffer[] = [];
  let total = 0;
  for (let i = 0; total < seconds * 16000 * 2; i++) {
    const wav = toMono16k(await fliteSynthesize(sentences[i % sentences.length]!))!;
    const data = Buffer.from(wav.subarray(44));
    parts.push(data);
    total += data.length;
  }
  const speech = pcmWav(Buffer.concat(parts), 16000, 1);
  const audioSeconds = (speech.length - 44) / 32000;
  const transcriber = createAudioTranscriber(createPocketsphinxSpeechToText(cli));
  const t0 = performance.now();
  const text = await transcriber.transcribe(speech, 'wav', { signal: new AbortController().signal, done: [], checkpoint: async () => {} });
  const ms = performance.now() - t0;
  console.log(`embedded recognizer (pocketsphinx): ${f1(audioSeconds)} s of synthesized speech in ${f1(ms)} ms, real-time factor ${(ms / 1000 / audioSeconds).toFixed(3)}; ${text.split(/\s+/).length} words recognised`);
}
