// Vectors kept without pgvector: float32 round trip and the cosine the app computes over them.
import { describe, expect, it } from 'vitest';
import { cosine, packFloat32, unpackFloat32 } from './float-vectors';

describe('float32 vectors', () => {
  it('round-trip through bytes at float32 precision, also from an odd offset inside a larger buffer', () => {
    const v = [0.1, -0.25, 3.5, 1e-8, -1];
    const packed = packFloat32(v);
    expect(packed.byteLength).toBe(20);
    const shifted = Buffer.concat([Buffer.from([7]), packed]).subarray(1);
    for (const bytes of [packed, shifted]) {
      const back = unpackFloat32(bytes);
      expect(back.length).toBe(5);
      back.forEach((x, i) => expect(x).toBeCloseTo(v[i]!, 6));
    }
    expect(Array.from(unpackFloat32(packFloat32([Number.NaN, 1])))).toEqual([0, 1]);
  });

  it('cosine: 1 for the same direction, -1 opposite, 0 orthogonal, zero or mismatched vectors', () => {
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 10);
    expect(cosine([1, 0], [-3, 0])).toBeCloseTo(-1, 10);
    expect(cosine([1, 0], [0, 5])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
    expect(cosine([1, 2], [1, 2, 3])).toBe(0);
    expect(cosine(unpackFloat32(packFloat32([0.6, 0.8])), [0.8, 0.6])).toBeCloseTo(0.96, 6);
  });
});
