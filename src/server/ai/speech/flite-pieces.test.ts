// Long text is spoken in sentence-sized pieces (one flite instance each) whose WAVs are joined.
import { describe, expect, it } from 'vitest';
import { joinWavs, splitIntoPieces } from './flite-pieces';

/** A 16-bit mono PCM WAV holding `samples`, laid out as flite writes it (44-byte header). */
function wav(samples: number[], rate = 8000): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('RIFF'), 0);
  view.setUint32(4, 36 + samples.length * 2, true);
  bytes.set(new TextEncoder().encode('WAVEfmt '), 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  bytes.set(new TextEncoder().encode('data'), 36);
  view.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => view.setInt16(44 + i * 2, s, true));
  return bytes;
}

function samplesOf(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(view.getUint32(4, true)).toBe(bytes.length - 8);
  expect(view.getUint32(40, true)).toBe(bytes.length - 44);
  return Array.from({ length: (bytes.length - 44) / 2 }, (_, i) => view.getInt16(44 + i * 2, true));
}

describe('splitIntoPieces', () => {
  const words = (text: string | string[]) => [text].flat().join(' ').split(/\s+/).filter(Boolean);

  it('keeps a short text whole', () => {
    expect(splitIntoPieces('Hi. How are you?', 100)).toEqual(['Hi. How are you?']);
  });

  it('cuts long text between sentences, no piece longer than the limit, no word lost', () => {
    const text = 'Hello there friend, how are you today? '.repeat(130).slice(0, 5000);
    const pieces = splitIntoPieces(text, 300);
    expect(pieces.length).toBeGreaterThanOrEqual(17);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(300);
    // Every piece but the last ends a sentence.
    for (const p of pieces.slice(0, -1)) expect(p).toMatch(/\?$/);
    expect(words(pieces)).toEqual(words(text));
  });

  it('cuts a sentence longer than the limit at a comma or a space, and a word longer than it anywhere', () => {
    const text = `${'one two, three four five, '.repeat(40)}${'x'.repeat(250)} end`;
    const pieces = splitIntoPieces(text, 100);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(100);
    expect(pieces.join(' ').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
    expect(pieces.filter((p) => p.endsWith(',')).length).toBeGreaterThan(5);
  });

  it('has nothing to say for blank text', () => {
    expect(splitIntoPieces(' \n\t ', 100)).toEqual([]);
  });
});

describe('joinWavs', () => {
  it('returns a single WAV as it is', () => {
    const one = wav([1, 2, 3]);
    expect(joinWavs([one])).toBe(one);
  });

  it('joins the samples of several WAVs under one header', () => {
    const joined = joinWavs([wav([1, 2]), wav([]), wav([3, -4, 5])]);
    expect(Buffer.from(joined.subarray(0, 4)).toString('latin1')).toBe('RIFF');
    expect(samplesOf(joined)).toEqual([1, 2, 3, -4, 5]);
    expect(new DataView(joined.buffer, joined.byteOffset).getUint32(24, true)).toBe(8000);
  });

  it('refuses pieces in different formats', () => {
    expect(() => joinWavs([wav([1], 8000), wav([2], 16000)])).toThrow(/format/);
  });
});
