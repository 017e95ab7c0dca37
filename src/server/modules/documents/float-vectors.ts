// Vectors as stored without pgvector: little-endian float32, 4 bytes a component (2 KB for 512
// dimensions, as pgvector itself keeps them), and the cosine the app computes over them.

export function packFloat32(v: readonly number[]): Buffer {
  const out = Buffer.alloc(v.length * 4);
  v.forEach((x, i) => out.writeFloatLE(Number.isFinite(x) ? x : 0, i * 4));
  return out;
}

export function unpackFloat32(bytes: Uint8Array): Float32Array {
  // A copy: the bytes may sit at an offset not divisible by 4 inside a larger buffer.
  const copy = new Uint8Array(bytes.byteLength - (bytes.byteLength % 4));
  copy.set(bytes.subarray(0, copy.byteLength));
  return new Float32Array(copy.buffer);
}

/** A stored vector as the database sends it (`encode(embedding, 'base64')`), as floats. */
export function fromBase64(stored: string): Float32Array {
  return unpackFloat32(Buffer.from(stored, 'base64'));
}

/** Cosine similarity; 0 when either vector is all zeros or the lengths differ. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
