// 16-bit PCM WAV becomes an AudioBuffer without a decoder: the samples and rate as they are; a
// streamed WAV of unknown length runs to the end of the bytes; anything else is left to decodeAudioData.
import { describe, expect, it } from 'vitest';
import { encodeWav } from './wav-encoder';
import { wavToAudioBuffer } from './wav-samples';

/** Just enough of a BaseAudioContext: createBuffer with per-channel float arrays. */
const context = {
  createBuffer(channels: number, frames: number, sampleRate: number) {
    const data = Array.from({ length: channels }, () => new Float32Array(frames));
    return { numberOfChannels: channels, length: frames, sampleRate, getChannelData: (ch: number) => data[ch]! };
  },
} as unknown as BaseAudioContext;

describe('wavToAudioBuffer', () => {
  it('copies the samples at their own rate', () => {
    const samples = Float32Array.from([0, 0.5, -0.5, 0.25, -1]);
    const buffer = wavToAudioBuffer(context, encodeWav(samples, 24000))!;
    expect(buffer.sampleRate).toBe(24000);
    expect(buffer.length).toBe(5);
    const out = Array.from(buffer.getChannelData(0));
    out.forEach((v, i) => expect(Math.abs(v - samples[i]!)).toBeLessThan(1 / 16000));
  });

  it('a streamed WAV (length unknown) runs to the end of its bytes', () => {
    const wav = encodeWav(Float32Array.from([0.1, 0.2, 0.3]), 16000);
    new DataView(wav.buffer).setUint32(40, 0xffffffff, true);
    expect(wavToAudioBuffer(context, wav)!.length).toBe(3);
  });

  it('MP3 and non-16-bit WAV are left to the decoder', () => {
    expect(wavToAudioBuffer(context, Uint8Array.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
    const wav = encodeWav(Float32Array.from([0.1]), 16000);
    new DataView(wav.buffer).setUint16(34, 8, true);
    expect(wavToAudioBuffer(context, wav)).toBeNull();
  });
});
