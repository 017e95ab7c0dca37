// A microphone file for Chromium (--use-file-for-fake-audio-capture): real synthesized speech
// (the embedded flite voice) and silences, as a 48 kHz mono WAV. Voice activity detection needs
// speech, not a tone.
import { fliteSynthesize } from '../../../src/server/ai/speech/flite-text-to-speech';
import { monoWavBuffer } from '../../fakes/fake-audio';

export const MIC_RATE = 48000;

/** 8 kHz flite speech as 48 kHz samples, normalized to a clear speaking level. */
export async function spoken(text: string): Promise<Float32Array> {
  const wav = Buffer.from(await fliteSynthesize(text));
  const rate = wav.readUInt32LE(24);
  let at = 12;
  while (wav.toString('latin1', at, at + 4) !== 'data') at += 8 + wav.readUInt32LE(at + 4);
  const n = wav.readUInt32LE(at + 4) / 2;
  const src = new Float32Array(n);
  let peak = 1;
  for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs((src[i] = wav.readInt16LE(at + 8 + i * 2))));
  const out = new Float32Array(Math.floor((n * MIC_RATE) / rate));
  for (let j = 0; j < out.length; j++) {
    const x = (j * rate) / MIC_RATE;
    const i = Math.floor(x);
    const a = src[i] ?? 0;
    const b = src[i + 1] ?? a;
    out[j] = ((a + (b - a) * (x - i)) / peak) * 0.6;
  }
  return out;
}

export const silence = (seconds: number) => new Float32Array(Math.round(seconds * MIC_RATE));

export function micWav(parts: Float32Array[]): Buffer {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = monoWavBuffer(n, MIC_RATE);
  let o = 44;
  for (const p of parts) {
    for (const v of p) {
      out.writeInt16LE(Math.round(Math.max(-1, Math.min(1, v)) * 32767), o);
      o += 2;
    }
  }
  return out;
}
