// A small, bounded PNG chunk reader and writer for character cards. Reading checks the signature,
// bounds every declared chunk length against what is left of the file before touching the data,
// verifies each chunk's CRC, and stops at IEND. The image itself is validated by content
// (IHDR fields, and the IDAT stream inflates to exactly the size IHDR implies) and rebuilt from
// a short list of image chunks, so no text, metadata or unknown chunk of the upload is kept.
import zlib from 'node:zlib';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** At most this many chunks are read (a real card has a few dozen). */
const MAX_CHUNKS = 10_000;
/** Image chunks kept in a rebuilt avatar; everything else (text, metadata, unknown) is dropped. */
const KEPT_CHUNKS = new Set(['IHDR', 'PLTE', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'bKGD', 'pHYs', 'IDAT', 'IEND']);
/** The largest avatar accepted, per side and decoded. */
export const MAX_IMAGE_SIDE = 4096;
const MAX_RAW_IMAGE_BYTES = 80 * 1024 * 1024;

export class PngError extends Error {}

export interface PngChunk {
  type: string;
  data: Buffer;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(...parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const part of parts) for (let i = 0; i < part.length; i++) c = CRC_TABLE[(c ^ part[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && Buffer.from(bytes.buffer, bytes.byteOffset, 8).equals(PNG_SIGNATURE);
}

/** Every chunk up to and including IEND; throws PngError with a reason a person can read. */
export function readPngChunks(input: Uint8Array): PngChunk[] {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (!isPng(bytes)) throw new PngError('the PNG signature is missing');
  const chunks: PngChunk[] = [];
  let pos = 8;
  for (;;) {
    if (chunks.length >= MAX_CHUNKS) throw new PngError('the PNG has too many chunks');
    // Length (4), type (4) and CRC (4) must fit before the declared length is even looked at.
    if (bytes.length - pos < 12) throw new PngError('the PNG ends before its IEND chunk');
    const length = bytes.readUInt32BE(pos);
    if (length > 0x7fffffff || length > bytes.length - pos - 12) {
      throw new PngError('a PNG chunk declares a length larger than the file');
    }
    const typeBytes = bytes.subarray(pos + 4, pos + 8);
    if (!typeBytes.every((b) => (b >= 65 && b <= 90) || (b >= 97 && b <= 122))) throw new PngError('a PNG chunk has an invalid type');
    const type = typeBytes.toString('latin1');
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    const crc = bytes.readUInt32BE(pos + 8 + length);
    if (crc32(typeBytes, data) !== crc) throw new PngError(`the PNG's ${type} chunk is damaged (checksum mismatch)`);
    chunks.push({ type, data });
    pos += 12 + length;
    if (type === 'IEND') return chunks;
  }
}

/** A tEXt chunk's keyword and text (both Latin-1 by the PNG spec), or null when malformed. */
export function readTextChunk(data: Buffer): { keyword: string; text: string } | null {
  const nul = data.indexOf(0);
  if (nul < 1 || nul > 79) return null;
  return { keyword: data.subarray(0, nul).toString('latin1'), text: data.subarray(nul + 1).toString('latin1') };
}

/**
 * An iTXt chunk's keyword and text (UTF-8 by the PNG spec), or null when malformed. `compressed`
 * tells a zlib-compressed text apart; its `text` is then empty (the caller decides what to say).
 */
export function readITextChunk(data: Buffer): { keyword: string; compressed: boolean; text: string } | null {
  const nul = data.indexOf(0);
  if (nul < 1 || nul > 79 || data.length < nul + 3) return null;
  const keyword = data.subarray(0, nul).toString('latin1');
  const compressed = data[nul + 1] === 1;
  // After the two compression bytes: a language tag and a translated keyword, each ending in NUL.
  const languageEnd = data.indexOf(0, nul + 3);
  const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) return null;
  if (compressed) return { keyword, compressed, text: '' };
  return { keyword, compressed, text: data.subarray(translatedEnd + 1).toString('utf8') };
}

export function textChunk(keyword: string, text: string): PngChunk {
  return { type: 'tEXt', data: Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]) };
}

export function writePng(chunks: PngChunk[]): Buffer {
  const parts: Buffer[] = [PNG_SIGNATURE];
  for (const { type, data } of chunks) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(head.subarray(4), data), 0);
    parts.push(head, data, tail);
  }
  return Buffer.concat(parts);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Bytes of filtered scanlines IHDR implies (what the IDAT stream must inflate to). */
function expectedRawSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? h * (1 + Math.ceil((w * bitsPerPixel) / 8)) : 0);
  if (!interlaced) return rows(width, height);
  let total = 0;
  for (const [xs, ys, dx, dy] of ADAM7) total += rows(Math.ceil((width - xs) / dx), Math.ceil((height - ys) / dy));
  return total;
}

/**
 * Checks the image by content and returns it rebuilt from its image chunks only (no text chunk,
 * so no card data or metadata of the upload survives). Throws PngError when it is not a sound
 * image: IHDR first with valid fields, PLTE where the colour type needs it, IDAT present and
 * inflating to exactly the scanline size IHDR implies (bounded, so no decompression bomb).
 */
export function rebuildImage(chunks: PngChunk[]): { png: Buffer; width: number; height: number } {
  const ihdr = chunks[0];
  if (!ihdr || ihdr.type !== 'IHDR' || ihdr.data.length !== 13) throw new PngError('the image has no valid IHDR header');
  const width = ihdr.data.readUInt32BE(0);
  const height = ihdr.data.readUInt32BE(4);
  const [depth, colorType, compression, filter, interlace] = [...ihdr.data.subarray(8, 13)] as [number, number, number, number, number];
  if (width < 1 || height < 1) throw new PngError('the image has no pixels');
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw new PngError(`the image is larger than ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE} pixels`);
  if (!DEPTHS[colorType]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) {
    throw new PngError('the image header has invalid values');
  }
  if (colorType === 3 && !chunks.some((c) => c.type === 'PLTE')) throw new PngError('the image has no palette');
  const idat = chunks.filter((c) => c.type === 'IDAT');
  if (idat.length === 0) throw new PngError('the image has no pixel data');
  const expected = expectedRawSize(width, height, CHANNELS[colorType]! * depth, interlace === 1);
  if (expected > MAX_RAW_IMAGE_BYTES) throw new PngError('the image is too large to decode');
  let raw: Buffer;
  try {
    raw = zlib.inflateSync(Buffer.concat(idat.map((c) => c.data)), { maxOutputLength: expected + 1 });
  } catch {
    throw new PngError('the image data is damaged');
  }
  if (raw.length !== expected) throw new PngError('the image data does not match its size');
  const png = writePng(chunks.filter((c) => KEPT_CHUNKS.has(c.type)));
  return { png, width, height };
}
