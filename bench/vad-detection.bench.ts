// How soon Silero VAD hears speech start and end, with the settings a call uses, offline (no
// browser): the model (@ricky0123/vad-web's Silero v5 on onnxruntime-web's WebAssembly) and the
// package's frame processor, exactly as the VAD worker runs them, over a looping microphone signal
// like the open-mic benchmark's (silence, a spoken sentence, silence, for many cycles without a
// reset, so the model's recurrent state carries over as in a call).
//
// Prints, for the call's settings and for the legacy model's thresholds (0.5 / 0.35) beside them:
//  - speech start: from the energy onset (the first 10.7 ms block over RMS 0.02, as the open-mic
//    benchmark's microphone probe marks it) to the end of the frame on which the VAD decided;
//  - end of turn: from the energy offset to the decision (the pause VOICE_END_OF_TURN_MS plus the
//    model's tail);
//  - misfires (speech too short to be a turn).
//
//   npx tsx bench/vad-detection.bench.ts          (CYCLES=40 to change the length)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as ort from 'onnxruntime-web/wasm';
import { Silero } from '@ricky0123/vad-web/dist/models';
import { FrameProcessor } from '@ricky0123/vad-web/dist/frame-processor';
import { Message } from '@ricky0123/vad-web/dist/messages';
import { log } from '@ricky0123/vad-web/dist/logging';
import { spoken, silence, micWav, MIC_RATE } from '../tests/e2e/support/spoken-wav';
import { VAD_FRAME_SAMPLES, VAD_SAMPLE_RATE, vadListenOptions, type VadListenOptions } from '../src/web/features/voice/open-mic/vad-protocol';
import { percentile } from './chat-bench-support';

const CYCLES = Number(process.env.CYCLES ?? 40);
const END_OF_TURN_MS = 600;
const RATE = VAD_SAMPLE_RATE;
const MS_PER_FRAME = (VAD_FRAME_SAMPLES / RATE) * 1000;
/** A mono PCM WAV file's header, before the samples micWav writes. */
const WAV_HEADER_BYTES = 44;
const PROBE_BLOCK = Math.round((512 / MIC_RATE) * RATE); // the microphone probe's 512-sample block at 48 kHz
const SENTENCES = ['Please tell me the whole story of your life.', 'Wait, tell me about your studies instead.', 'Hello there, can you tell me about your life?'];

const require = createRequire(import.meta.url);
const modelFile = path.join(path.dirname(require.resolve('@ricky0123/vad-web/package.json')), 'dist', 'silero_vad_v5.onnx');
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
// The package's loading messages are not figures.
log.debug = () => {};

/** One cycle at 16 kHz: 0.5 s of silence, the sentence, 2.5 s of silence, read from the WAV file
 * the open-mic benchmark plays as the microphone (micWav: 48 kHz, 16-bit). */
async function cycleOf(sentence: string): Promise<Float32Array> {
  const wav = micWav([silence(0.5), await spoken(sentence), silence(2.5)]);
  const sampleAt48 = (k: number) => wav.readInt16LE(WAV_HEADER_BYTES + 2 * k) / 32768;
  // 48 kHz to 16 kHz as the package's worklet does it: each output sample the mean of its inputs.
  const ratio = MIC_RATE / RATE;
  const out = new Float32Array(Math.floor((wav.length - WAV_HEADER_BYTES) / 2 / ratio));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let j = 0; j < ratio; j++) sum += sampleAt48(i * ratio + j);
    out[i] = sum / ratio;
  }
  return out;
}

/** Where speech begins and ends in a cycle, by energy (samples). */
function energyBounds(cycle: Float32Array): { onset: number; offset: number } {
  let onset = -1;
  let offset = 0;
  for (let i = 0; i + PROBE_BLOCK <= cycle.length; i += PROBE_BLOCK) {
    let sum = 0;
    for (let j = i; j < i + PROBE_BLOCK; j++) sum += cycle[j]! * cycle[j]!;
    if (Math.sqrt(sum / PROBE_BLOCK) <= 0.02) continue;
    if (onset < 0) onset = i;
    offset = i + PROBE_BLOCK;
  }
  return { onset, offset };
}

async function run(cycle: Float32Array, options: VadListenOptions) {
  const model = await Silero.new(ort as never, async () => fs.readFileSync(modelFile).buffer as ArrayBuffer);
  const processor = new FrameProcessor(model.process, model.reset_state, { ...options, submitUserSpeechOnPause: false }, MS_PER_FRAME);
  processor.resume();
  const { onset, offset } = energyBounds(cycle);
  const starts: number[] = [];
  const ends: number[] = [];
  let misfires = 0;
  const total = cycle.length * CYCLES;
  const frame = new Float32Array(VAD_FRAME_SAMPLES);
  for (let f = 0; (f + 1) * VAD_FRAME_SAMPLES <= total; f++) {
    for (let i = 0; i < VAD_FRAME_SAMPLES; i++) frame[i] = cycle[(f * VAD_FRAME_SAMPLES + i) % cycle.length]!;
    const decidedAt = (f + 1) * VAD_FRAME_SAMPLES; // the decision needs the frame's last sample
    const cycleStart = Math.floor((f * VAD_FRAME_SAMPLES) / cycle.length) * cycle.length;
    await processor.process(frame.slice(), (event) => {
      if (event.msg === Message.SpeechStart) starts.push(((decidedAt - cycleStart - onset) / RATE) * 1000);
      else if (event.msg === Message.SpeechEnd) ends.push(((decidedAt - cycleStart - offset) / RATE) * 1000);
      else if (event.msg === Message.VADMisfire) misfires++;
    });
  }
  return { starts, ends, misfires };
}

/** Background that is not speech: white noise, and mains hum under soft noise (5 s each, 16 kHz). */
function noises(): [string, Float32Array][] {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 0x100000000) * 2 - 1;
  const white = Float32Array.from({ length: 5 * RATE }, () => random() * 0.1);
  const hum = Float32Array.from({ length: 5 * RATE }, (_, i) => 0.1 * Math.sin((2 * Math.PI * 50 * i) / RATE) + 0.05 * Math.sin((2 * Math.PI * 150 * i) / RATE) + random() * 0.02);
  return [
    ['white noise', white],
    ['hum', hum],
  ];
}

const figures = (values: number[]) =>
  values.length === 0 ? 'none' : `n=${values.length}  p50 ${percentile(values, 0.5).toFixed(0)} ms  p95 ${percentile(values, 0.95).toFixed(0)} ms  max ${Math.max(...values).toFixed(0)} ms`;

const settings: [string, VadListenOptions][] = [
  ['call settings', vadListenOptions(END_OF_TURN_MS)],
  ['legacy thresholds 0.5 / 0.35', { ...vadListenOptions(END_OF_TURN_MS), positiveSpeechThreshold: 0.5, negativeSpeechThreshold: 0.35 }],
];
console.log(`Silero v5, ${CYCLES} cycles a sentence, end of turn ${END_OF_TURN_MS} ms, ${SENTENCES.length} sentences`);
for (const [name, options] of settings) {
  const all = { starts: [] as number[], ends: [] as number[], misfires: 0 };
  for (const sentence of SENTENCES) {
    const result = await run(await cycleOf(sentence), options);
    all.starts.push(...result.starts);
    all.ends.push(...result.ends);
    all.misfires += result.misfires;
  }
  console.log(`${name} (${options.positiveSpeechThreshold} / ${options.negativeSpeechThreshold}):`);
  console.log(`  speech start after the energy onset: ${figures(all.starts)}`);
  console.log(`  end of turn after the energy offset: ${figures(all.ends)}`);
  console.log(`  misfires: ${all.misfires}`);
  // Noise heard as speech would stop a reply for nothing (a barge-in on no one).
  for (const [noise, signal] of noises()) {
    const result = await run(signal, options);
    console.log(`  ${noise}, ${((signal.length * CYCLES) / RATE).toFixed(0)} s: ${result.starts.length} speech starts`);
  }
}
