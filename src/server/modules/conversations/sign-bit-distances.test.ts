// The SIMD distance pass must count exactly what a bit-by-bit count says, for every vector of
// every array, and the bytes it runs must be the compiled sign-bit-distances.wat.
import fs from 'node:fs';
import path from 'node:path';
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';
import { SIGN_BIT_DISTANCES_WASM, signBitDistances, simdDistances } from './sign-bit-distances';

let seed = 17;
const random32 = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);

function bitByBit(arrays: Uint32Array[], query: Uint32Array): number[] {
  const out: number[] = [];
  for (const bits of arrays)
    for (let base = 0; base < bits.length; base += query.length) {
      let d = 0;
      for (let w = 0; w < query.length; w++) for (let x = (bits[base + w]! ^ query[w]!) >>> 0; x; x >>>= 1) d += x & 1;
      out.push(d);
    }
  return out;
}

describe('signBitDistances', () => {
  it('takes the SIMD path for whole 128-bit blocks only', () => {
    expect(simdDistances(16)).toBe(true); // 512 dimensions
    expect(simdDistances(48)).toBe(true); // 1,536
    expect(simdDistances(2)).toBe(false); // 64: the JavaScript count
    expect(simdDistances(0)).toBe(false);
  });

  for (const [words, label] of [
    [16, '512 dimensions'],
    [48, '1,536 dimensions'],
    [4, '128 dimensions (one block)'],
    [3, '96 dimensions (not whole blocks: the JavaScript count)'],
  ] as const)
    it(`counts every distance exactly: ${label}`, () => {
      const query = Uint32Array.from({ length: words }, random32);
      // Arrays of different sizes, one empty, one far larger than the next (memory grows once, then is reused).
      const arrays = [3000, 0, 1, 257].map((n) => Uint32Array.from({ length: n * words }, random32));
      // Extremes: identical to the query, and every bit different.
      arrays.push(Uint32Array.from([...query, ...query.map((x) => ~x >>> 0)]));
      const expected = bitByBit(arrays, query);
      const out = new Uint16Array(expected.length + 5).fill(9999);
      signBitDistances(arrays, query, out);
      expect(Array.from(out.subarray(0, expected.length))).toEqual(expected);
      expect(expected.slice(-2)).toEqual([0, words * 32]);
      expect(out[expected.length]).toBe(9999); // nothing written past the last vector
      if (simdDistances(words)) {
        const js = new Uint16Array(expected.length);
        signBitDistances(arrays, query, js, false);
        expect(Array.from(js)).toEqual(expected);
      }
    });

  it('runs the module compiled from sign-bit-distances.wat', async () => {
    const wabt = await wabtInit();
    const file = path.join(import.meta.dirname, 'sign-bit-distances.wat');
    const module = wabt.parseWat(file, fs.readFileSync(file, 'utf8'), { simd: true });
    const { buffer } = module.toBinary({});
    module.destroy();
    expect(Buffer.from(buffer).toString('base64')).toBe(SIGN_BIT_DISTANCES_WASM);
  });
});
