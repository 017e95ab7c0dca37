import { describe, expect, it } from 'vitest';
import { downsample, encodeWav, joinFrames } from './wav-encoder';

describe('chat recording WAV', () => {
  it('downsamples 24 kHz to 16 kHz by averaging, keeping a tone at its frequency', () => {
    const seconds = 0.5;
    const input = new Float32Array(24000 * seconds).map((_, i) => Math.sin((2 * Math.PI * 440 * i) / 24000));
    const out = downsample(input, 24000, 16000);
    expect(out.length).toBe(16000 * seconds);
    // Zero crossings per second stay about 2 x 440 (the pitch is kept, not shifted).
    let crossings = 0;
    for (let i = 1; i < out.length; i++) if (out[i - 1]! < 0 !== out[i]! < 0) crossings++;
    expect(crossings / seconds).toBeGreaterThan(860);
    expect(crossings / seconds).toBeLessThan(900);
    expect(downsample(new Float32Array([0.5, 0.5, 0.5]), 16000, 16000)).toEqual(new Float32Array([0.5, 0.5, 0.5]));
  });

  it('writes a 16-bit mono PCM RIFF header and clipped samples', () => {
    const wav = encodeWav(new Float32Array([0, 1, -1, 2, -2, 0.5]), 16000);
    const view = new DataView(wav.buffer);
    const text = (at: number, n: number) => String.fromCharCode(...wav.slice(at, at + n));
    expect(text(0, 4)).toBe('RIFF');
    expect(text(8, 4)).toBe('WAVE');
    expect(text(12, 4)).toBe('fmt ');
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(16000);
    expect(view.getUint32(28, true)).toBe(32000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(text(36, 4)).toBe('data');
    expect(view.getUint32(40, true)).toBe(12);
    expect(view.getUint32(4, true)).toBe(wav.length - 8);
    const samples = [0, 1, 2, 3, 4, 5].map((i) => view.getInt16(44 + i * 2, true));
    expect(samples).toEqual([0, 32767, -32768, 32767, -32768, 16383]);
  });

  it('joins captured blocks in order', () => {
    expect(joinFrames([new Float32Array([1, 2]), new Float32Array([3])])).toEqual(new Float32Array([1, 2, 3]));
  });
});
