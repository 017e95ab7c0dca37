// Open mic in Chromium (`npm run bench -- open-mic`; needs `npm run build`). The fake microphone
// plays synthesized speech; the providers are zero-latency loopback fakes, so the figures are what
// the product adds:
//  1. own hands-free loop: from the VAD's end-of-turn decision to the first reply audio playing
//     (speech-to-text, the chat's first sentence, its speech, decoding), per turn, p50/p95;
//  2. barge-in: from the speech onset in the microphone signal (an energy detector the page is
//     instrumented with, ±11 ms resolution) to the reply being stopped (its <audio> paused, or
//     during a call its Web Audio source stopped);
//  3. ElevenLabs agent calls: Start to connected, cold (no pooled signed URL) and pre-loaded, with
//     the signed-URL trip at 0 ms and at a realistic 150 ms.
// Prints figures; never fails on time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startFakeOpenAI } from '../tests/fakes/openai-fake';
import { startFakeElevenLabs } from '../tests/fakes/elevenlabs-fake';
import { startKindred, voiceProviderEnv } from '../tests/e2e/support/model-server';
import { micWav, silence, spoken } from '../tests/e2e/support/spoken-wav';

if (!fs.existsSync(path.resolve('dist/web/index.html'))) {
  console.log('no build in dist/web: run npm run build first');
  process.exit(1);
}

const TURNS = Number(process.env.TURNS ?? 15);
const CALLS = Number(process.env.CALLS ?? 8);
/** PARTS=loop,barge-in,agent (default all). */
const PARTS = (process.env.PARTS ?? 'loop,barge-in,agent').split(',');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};
const line = (label: string, xs: number[]) =>
  console.log(`${label}: n=${xs.length}  p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms  min ${Math.min(...xs).toFixed(1)}  max ${Math.max(...xs).toFixed(1)}`);

const fake = await startFakeOpenAI({ chat: { mode: 'reply', reply: 'Hello there. I am well.', delayMs: 0 } });
fake.setAudio({ transcript: 'Hello, how are you today?', transcribeFail: 'none', speechFail: 'none' });
// PROFILE=1: when the providers were asked (wall clock, beside the page's marks).
const fakeMarks: { what: string; at: number }[] = [];
const markArrivals = (list: unknown[], what: string) => {
  const push = list.push.bind(list);
  list.push = (...items: unknown[]) => (fakeMarks.push({ what, at: performance.timeOrigin + performance.now() }), push(...items));
};
markArrivals(fake.transcriptions, '  fake: transcription asked');
markArrivals(fake.chatRequests, '  fake: chat asked');
markArrivals(fake.speeches, '  fake: speech asked');
const eleven = await startFakeElevenLabs();
const app = await startKindred({ ...voiceProviderEnv(fake.url, eleven.url), VOICE_END_OF_TURN_MS: '600', VOICE_DAILY_CREDIT_LIMIT: '100000000' });

const files: string[] = [];
async function browserWithMic(parts: Float32Array[]): Promise<Browser> {
  const file = path.join(os.tmpdir(), `kindred-bench-mic-${process.pid}-${files.length}.wav`);
  fs.writeFileSync(file, micWav(parts));
  files.push(file);
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${file}`, '--autoplay-policy=no-user-gesture-required'],
  });
}

interface BargeInMarks {
  onsets: number[];
  pauses: number[];
  vadStarts: { decided: number; arrived: number }[];
}

let people = 0;
async function chatPage(browser: Browser, fields: Record<string, unknown>): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Never wait forever on a page that went away.
  page.setDefaultTimeout(30_000);
  await page.addInitScript(() => {
    // Microphone onsets (energy) and replies cut short, for the barge-in figure.
    const bench = { onsets: [] as number[], pauses: [] as number[], vadStarts: [] as { decided: number; arrived: number }[] };
    // The VAD worker's speech starts: when it decided and when the page read it (page time), to
    // split a barge-in's time between detection and the page.
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (options?.name === 'vad')
          this.addEventListener('message', (ev: MessageEvent<{ type: string; decidedAt?: number }>) => {
            if (ev.data.type === 'speech-start' && ev.data.decidedAt) bench.vadStarts.push({ decided: ev.data.decidedAt - performance.timeOrigin, arrived: performance.now() });
          });
      }
    };
    (window as unknown as { __bench: typeof bench }).__bench = bench;
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      const ctx = new AudioContext();
      const node = ctx.createScriptProcessor(512, 1, 1);
      let quietMs = 1e9;
      node.onaudioprocess = (e) => {
        const d = e.inputBuffer.getChannelData(0);
        let sum = 0;
        for (const v of d) sum += v * v;
        const now = performance.now();
        if (Math.sqrt(sum / d.length) > 0.02) {
          // The onset is at the start of this buffer.
          if (quietMs > 300) bench.onsets.push(now - (d.length / ctx.sampleRate) * 1000);
          quietMs = 0;
        } else quietMs += (d.length / ctx.sampleRate) * 1000;
      };
      ctx.createMediaStreamSource(stream).connect(node);
      node.connect(ctx.destination);
      return stream;
    };
    // PROFILE=1: when each voice request started, got its headers and finished, and when audio
    // began playing, to see where a turn's time goes.
    // Wall-clock times (performance.timeOrigin + now), so the fakes' marks in this process line up.
    const marks: { what: string; at: number }[] = [];
    (window as unknown as { __marks: typeof marks }).__marks = marks;
    // (Assigned to a property: tsx would wrap a named function in a helper the page does not have.)
    const at = { mark: null as unknown as (what: string) => unknown };
    at.mark = function (what: string) {
      return marks.push({ what, at: performance.timeOrigin + performance.now() });
    };
    const mark = at.mark;
    // The turn's NDJSON as the page decodes it: which events each chunk brought.
    const decode = TextDecoder.prototype.decode;
    TextDecoder.prototype.decode = function (this: TextDecoder, ...args: Parameters<TextDecoder['decode']>) {
      const text = decode.apply(this, args);
      const types = [...text.matchAll(/^\{"type":"(\w+)"/gm)].map((m) => m[1]);
      if (types.length) mark(`  ndjson ${types.join(',')} (${text.length} chars)`);
      return text;
    };
    const createBuffer = BaseAudioContext.prototype.createBuffer;
    BaseAudioContext.prototype.createBuffer = function (this: BaseAudioContext, ...args: Parameters<BaseAudioContext['createBuffer']>) {
      mark(`  createBuffer ${args[1]} frames @${args[2]} Hz`);
      return createBuffer.apply(this, args);
    };
    const decodeAudioData = BaseAudioContext.prototype.decodeAudioData;
    BaseAudioContext.prototype.decodeAudioData = function (this: BaseAudioContext, ...args: Parameters<BaseAudioContext['decodeAudioData']>) {
      mark('  decodeAudioData>');
      const done = decodeAudioData.apply(this, args);
      void done.then(() => mark('  decodeAudioData done'), () => undefined);
      return done;
    };
    // Long main-thread tasks (the VAD's inference, React renders) that hold everything else up.
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) marks.push({ what: `  longtask ${e.duration.toFixed(0)} ms (started)`, at: performance.timeOrigin + e.startTime });
      }).observe({ type: 'longtask', buffered: false });
    } catch {
      // No long-task timing in this browser.
    }
    const origFetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const what = (/\/(transcribe|speech|chat|turn)\b/.exec(url) ?? [])[1];
      if (!what) return origFetch(input, init);
      mark(`${what}>`);
      const res = await origFetch(input, init);
      mark(`${what}:headers ${res.headers.get('server-timing') ?? ''}`);
      return res;
    };
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      mark('play()');
      this.addEventListener('playing', () => mark('playing'), { once: true });
      return play.call(this);
    };
    const pause = HTMLMediaElement.prototype.pause;
    HTMLMediaElement.prototype.pause = function (this: HTMLMediaElement) {
      if (!this.ended && !this.paused) bench.pauses.push(performance.now());
      return pause.call(this);
    };
    // During a call the reply plays through the call's AudioContext: a sentence is audible from its
    // source's start() and falls silent at stop() before its end.
    const playing = new WeakSet<AudioBufferSourceNode>();
    const start = AudioBufferSourceNode.prototype.start;
    AudioBufferSourceNode.prototype.start = function (this: AudioBufferSourceNode, ...args: Parameters<AudioBufferSourceNode['start']>) {
      playing.add(this);
      this.addEventListener('ended', () => playing.delete(this), { once: true });
      start.apply(this, args);
      mark('source.start()');
    };
    const stop = AudioScheduledSourceNode.prototype.stop;
    AudioScheduledSourceNode.prototype.stop = function (this: AudioScheduledSourceNode, when?: number) {
      if (this instanceof AudioBufferSourceNode && playing.has(this) && !when) {
        playing.delete(this);
        bench.pauses.push(performance.now());
      }
      return stop.call(this, when);
    };
  });
  const email = `bench-${Date.now()}-${people++}@example.com`;
  const headers = { origin: app.url };
  await page.request.post(`${app.url}/api/auth/sign-up/email`, { data: { email, password: 'bench-password', name: '' }, headers });
  await page.request.post(`${app.url}/api/auth/sign-in/email`, { data: { email, password: 'bench-password' }, headers });
  const me = (await (await page.request.get(`${app.url}/api/me`)).json()) as { user: { id: string } };
  await page.addInitScript((key) => localStorage.setItem(key, 'true'), `kindred:onboarding-completed:${me.user.id}`);
  const name = `Bench ${people} ${Date.now().toString(36)}`;
  const res = await page.request.post(`${app.url}/api/personalities`, { data: { name, ...fields }, headers });
  if (res.status() !== 201) throw new Error(await res.text());
  await page.goto(app.url);
  await page.getByRole('button', { name: `Start Chat with ${name}` }).click();
  await page.getByRole('tab', { name: 'Open Mic Chat' }).click();
  return page;
}

const panel = (page: Page) => page.getByTestId('open-mic-chat');

async function waitForAttr(page: Page, attr: string, test: (v: string | null) => boolean, timeoutMs: number): Promise<string | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await panel(page).getAttribute(attr);
    if (test(v) || Date.now() > until) return v;
    await page.waitForTimeout(100);
  }
}

// 1. The own loop: a short question every ~3.5 s, a two-sentence answer that ends before the next.
if (PARTS.includes('loop')) {
  const browser = await browserWithMic([silence(0.5), await spoken('Hello there, how are you today?'), silence(3)]);
  const page = await chatPage(browser, { voiceProvider: 'openai', voice: 'nova' });
  await page.getByText('Pre-loaded').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Start Voice Chat' }).click();
  const v = await waitForAttr(page, 'data-response-ms', (x) => (x ?? '').split(' ').filter(Boolean).length >= TURNS, TURNS * 8000);
  const times = (v ?? '').split(' ').filter(Boolean).map(Number);
  if (process.env.PROFILE) {
    const pageMarks = await page.evaluate(() => (window as unknown as { __marks: { what: string; at: number }[] }).__marks);
    // The VAD's decision is where each turn's figure starts: its first source.start() less that figure.
    const starts = pageMarks.filter((m) => m.what.startsWith('turn>')).map((m) => pageMarks.find((n) => n.at >= m.at && n.what === 'source.start()'));
    const vadEnds = times.flatMap((ms, i) => (starts[i] ? [{ what: `VAD end of turn (figure ${ms.toFixed(0)} ms)`, at: starts[i]!.at - ms }] : []));
    const marks = [...pageMarks, ...fakeMarks, ...vadEnds].sort((a, b) => a.at - b.at);
    let t0 = 0;
    const rows: string[] = [];
    for (const m of marks) {
      if (m.what.startsWith('transcribe>') || m.what.startsWith('turn>')) t0 = m.at;
      if (m.what.startsWith('VAD end')) rows.push('');
      rows.push(`${(m.at - t0).toFixed(0).padStart(6)} ${m.what}`);
    }
    console.log(rows.join('\n'));
  }
  line('own loop, end of turn (VAD) to first reply audio, zero-latency providers', times);
  await browser.close();
}

// 2. Barge-in: a long answer, talked over by the next question each time.
if (PARTS.includes('barge-in')) {
  fake.chatSettings.reply = Array.from({ length: 12 }, (_, i) => `This is sentence ${i + 1} of a long and winding answer.`).join(' ');
  const browser = await browserWithMic([silence(0.5), await spoken('Please tell me the whole story of your life.'), silence(2.5)]);
  const page = await chatPage(browser, { voiceProvider: 'openai', voice: 'nova' });
  await page.getByText('Pre-loaded').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Start Voice Chat' }).click();
  const until = Date.now() + TURNS * 8000;
  let latencies: number[] = [];
  let b: BargeInMarks = { onsets: [], pauses: [], vadStarts: [] };
  while (Date.now() < until) {
    await page.waitForTimeout(1000);
    b = await page.evaluate(() => (window as unknown as { __bench: BargeInMarks }).__bench);
    const { onsets, pauses } = b;
    // One stop silences every piece of a streamed sentence at once: those count as one.
    const stops = pauses.filter((p, i) => i === 0 || p - pauses[i - 1]! > 50);
    latencies = stops.flatMap((p) => {
      const onset = onsets.filter((o) => o <= p).at(-1);
      return onset !== undefined && p - onset < 2000 ? [p - onset] : [];
    });
    if (latencies.length >= TURNS) break;
  }
  line('barge-in, speech onset in the microphone to the reply stopped', latencies);
  // Where it goes: onset to the worker's decision (the model hearing speech), and the decision to
  // the page reading it (the page busy).
  const starts = b.vadStarts.flatMap((s) => {
    const onset = b.onsets.filter((o) => o <= s.decided + 1).at(-1);
    return onset !== undefined && s.decided - onset < 2000 ? [{ detect: s.decided - onset, deliver: s.arrived - s.decided }] : [];
  });
  line('  of which: onset to the VAD deciding speech began', starts.map((s) => s.detect));
  line('  of which: the decision to the page reading it', starts.map((s) => s.deliver));
  if (process.env.BENCH_DETAIL) console.log('  detection times:', starts.map((s) => s.detect.toFixed(0)).join(' '));
  await browser.close();
}

// 3. Agent calls: connect time cold and pre-loaded.
for (const delay of PARTS.includes('agent') ? [0, 150] : []) {
  eleven.convai.set({ signedUrlDelayMs: delay });
  const browser = await browserWithMic([silence(2)]);
  const page = await chatPage(browser, { voiceProvider: 'elevenlabs', agentId: `agent_bench_${delay}` });
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < CALLS * 2; i++) {
    const preloaded = i % 2 === 1;
    if (preloaded) await page.getByText('Pre-loaded').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Start Voice Chat' }).click();
    await page.getByRole('status', { name: 'Call status' }).filter({ hasText: 'Connected' }).waitFor({ timeout: 15_000 });
    const ms = Number(await waitForAttr(page, 'data-connect-ms', (x) => x !== null, 5000));
    (preloaded ? warm : cold).push(ms);
    // The next call alternates: the re-preload after hanging up fails on purpose for a cold start.
    eleven.convai.set({ fail: preloaded ? 'unknown_agent' : 'none' });
    await page.getByRole('button', { name: 'End Call' }).click();
    await page.getByRole('status', { name: 'Call status' }).filter({ hasText: 'Disconnected' }).waitFor();
    await page.waitForTimeout(delay + 300);
    eleven.convai.set({ fail: 'none' });
  }
  line(`agent connect, cold (signed URL ${delay} ms)`, cold);
  line(`agent connect, pre-loaded (signed URL ${delay} ms)`, warm);
  await browser.close();
}

await app.close();
await eleven.close();
await fake.close();
for (const f of files) fs.rmSync(f, { force: true });
