// A chunk's sentence vectors, packed for storage beside the chunk's own vector: each sentence is
// a float32 scale followed by its components as signed bytes (value / scale, scale = max |x| / 127).
// About 516 bytes a sentence for 512 dimensions instead of 2 KB, and cosine over them is within
// about 1% of the full-precision value, which is all ranking and picking a sentence need.

export function packSentenceVectors(vectors: number[][]): Buffer {
  if (vectors.length === 0) return Buffer.alloc(0);
  const dims = vectors[0]!.length;
  const stride = 4 + dims;
  const out = Buffer.alloc(4 + vectors.length * stride);
  out.writeUInt32LE(dims, 0);
  vectors.forEach((v, s) => {
    let max = 0;
    for (const x of v) max = Math.max(max, Math.abs(x));
    const scale = max / 127 || 1;
    const at = 4 + s * stride;
    out.writeFloatLE(scale, at);
    for (let i = 0; i < dims; i++) out.writeInt8(Math.max(-127, Math.min(127, Math.round((v[i] ?? 0) / scale))), at + 4 + i);
  });
  return out;
}

/** Cosine of `query` (unit length) with each packed sentence, in order. */
export function sentenceCosines(packed: Uint8Array | null | undefined, query: number[]): number[] {
  if (!packed || packed.byteLength < 4) return [];
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  // The components read as a typed array: a DataView call per byte was most of the cost.
  const components = new Int8Array(packed.buffer, packed.byteOffset, packed.byteLength);
  const dims = view.getUint32(0, true);
  if (dims !== query.length) return [];
  const stride = 4 + dims;
  const out: number[] = [];
  for (let at = 4; at + stride <= packed.byteLength; at += stride) {
    const scale = view.getFloat32(at, true);
    let dot = 0;
    let norm = 0;
    for (let i = 0, c = at + 4; i < dims; i++, c++) {
      const x = components[c]! * scale;
      dot += x * query[i]!;
      norm += x * x;
    }
    out.push(norm > 0 ? dot / Math.sqrt(norm) : 0);
  }
  return out;
}
