// Hamming distances between a question's sign bits and every chunk's, the first pass of hybrid
// search (vector-index.ts). WebAssembly SIMD counts 128 bits at a time (i8x16.popcnt): 100,000
// chunks of 512 dimensions take ~2 ms, copies into its memory included, against ~10.5 ms for the
// bit count written out in JavaScript, which stays as the path for vectors whose bits are not a
// whole number of 128-bit blocks (and for a runtime without SIMD).
//
// The module is compiled from sign-bit-distances.wat (beside this file); the test
// sign-bit-distances.test.ts recompiles it with wabt and fails if these bytes differ.
export const SIGN_BIT_DISTANCES_WASM =
  'AGFzbQEAAAABCQFgBX9/f39/AAMCAQAFAwEAAQcUAgZtZW1vcnkCAAdoYW1taW5nAAAKmgEBlwECA38CeyAEIAFBAXRqIQUCQANAIAQgBU8NAf0MAAAAAAAAAAAAAAAAAAAAACEIIAIhBiADIQcDQCAIIAD9AAQAIAb9AAQA/VH9Yv19/Y4BIQggAEEQaiEAIAZBEGohBiAHQQFrIgcNAAsgCP1/IQkgBCAJ/RsAIAn9GwFqIAn9GwIgCf0bA2pqOwEAIARBAmohBAwACwsL';

interface HammingModule {
  memory: WebAssembly.Memory;
  hamming(bits: number, n: number, query: number, blocks: number, out: number): void;
}

const BLOCK_WORDS = 4; // 128 bits
const PAGE = 65536;

/** Compiled once, synchronously (207 bytes); undefined where WebAssembly SIMD is unavailable. */
const wasm: HammingModule | undefined = (() => {
  try {
    const bytes = Buffer.from(SIGN_BIT_DISTANCES_WASM, 'base64');
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    return instance.exports as unknown as HammingModule;
  } catch {
    return undefined;
  }
})();

/** Whether the fast path runs for vectors of this many 32-bit words. */
export function simdDistances(words: number): boolean {
  return wasm !== undefined && words > 0 && words % BLOCK_WORDS === 0;
}

/**
 * Writes into `out`, in order, the Hamming distance between `query` and each vector of each
 * array (vectors laid end to end, `query.length` words each). `out` must hold them all.
 */
export function signBitDistances(arrays: readonly Uint32Array[], query: Uint32Array, out: Uint16Array, useSimd = simdDistances(query.length)): void {
  if (useSimd && wasm) distancesWasm(wasm, arrays, query, out);
  else distancesJs(arrays, query, out);
}

function distancesWasm(module: HammingModule, arrays: readonly Uint32Array[], query: Uint32Array, out: Uint16Array) {
  const words = query.length;
  let total = 0;
  let largest = 0;
  for (const bits of arrays) {
    total += bits.length / words;
    largest = Math.max(largest, bits.length);
  }
  // Layout: the query, then the distances, then one array's bits at a time (copied in turn, so
  // memory grows to the largest document, not the whole library).
  const queryBytes = words * 4;
  const outAt = queryBytes;
  const bitsAt = outAt + align16(total * 2);
  const needed = bitsAt + largest * 4;
  const have = module.memory.buffer.byteLength;
  if (needed > have) module.memory.grow(Math.ceil((needed - have) / PAGE));
  const memoryWords = new Uint32Array(module.memory.buffer);
  memoryWords.set(query, 0);
  let at = 0;
  for (const bits of arrays) {
    const n = bits.length / words;
    if (n === 0) continue;
    memoryWords.set(bits, bitsAt / 4);
    module.hamming(bitsAt, n, 0, words / BLOCK_WORDS, outAt + at * 2);
    at += n;
  }
  out.set(new Uint16Array(module.memory.buffer, outAt, total));
}

function align16(bytes: number): number {
  return (bytes + 15) & ~15;
}

function distancesJs(arrays: readonly Uint32Array[], query: Uint32Array, out: Uint16Array) {
  const words = query.length;
  let at = 0;
  for (const bits of arrays) {
    for (let base = 0; base < bits.length; base += words) {
      let d = 0;
      for (let w = 0; w < words; w++) {
        // Set bits of the XOR, counted in parallel within the word (SWAR).
        let x = bits[base + w]! ^ query[w]!;
        x -= (x >>> 1) & 0x55555555;
        x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
        d += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
      }
      out[at++] = d;
    }
  }
}
