// Reads a zip's central directory and measures what its entries really unpack to, without keeping
// the output: the guard against zip bombs in .docx files. Declared sizes can lie, so the check
// inflates every entry in small steps and stops as soon as the running total passes the cap.
import { Inflate } from 'fflate';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD_SIG = 0x06054b50;
const CD_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const MAX_ENTRIES = 10_000;

/**
 * The entries of a zip, or undefined when it is not a readable (non-zip64) zip. `bytes` is the
 * whole file, or its last part starting at file offset `bytesAt` (an upload judged as it streams
 * keeps only its tail): the central directory must then lie within that part.
 */
export function listZipEntries(bytes: Uint8Array, bytesAt = 0): ZipEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const minEocd = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= minEocd; i--) {
    if (view.getUint32(i, true) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdFileOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdFileOffset === 0xffffffff || count > MAX_ENTRIES) return undefined;
  const cdOffset = cdFileOffset - bytesAt;
  if (cdOffset < 0) return undefined;
  if (cdOffset + cdSize > bytes.length) return undefined;
  const entries: ZipEntry[] = [];
  let p = cdOffset;
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CD_SIG) return undefined;
    const method = view.getUint16(p + 10, true);
    const compressedSize = view.getUint32(p + 20, true);
    const uncompressedSize = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const localHeaderOffset = view.getUint32(p + 42, true);
    if (p + 46 + nameLen > bytes.length) return undefined;
    const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) return undefined;
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

export type UnpackCheck = { ok: true; total: number } | { ok: false; reason: 'corrupt' | 'too_big' };

const STEP = 16 * 1024;

/** Inflates every entry, counting bytes; fails fast past `maxTotal`. */
export function checkUnpackedSize(bytes: Uint8Array, maxTotal: number): UnpackCheck {
  const entries = listZipEntries(bytes);
  if (!entries) return { ok: false, reason: 'corrupt' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (const entry of entries) {
    if (entry.uncompressedSize > maxTotal) return { ok: false, reason: 'too_big' };
    const at = entry.localHeaderOffset;
    if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIG) return { ok: false, reason: 'corrupt' };
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > bytes.length) return { ok: false, reason: 'corrupt' };
    if (entry.method === 0) {
      total += entry.compressedSize;
    } else if (entry.method === 8) {
      let over = false;
      const inflater = new Inflate((chunk) => {
        total += chunk.length;
        if (total > maxTotal) over = true;
      });
      try {
        for (let p = start; p < end && !over; p += STEP) {
          inflater.push(bytes.subarray(p, Math.min(end, p + STEP)), p + STEP >= end);
        }
      } catch {
        return { ok: false, reason: 'corrupt' };
      }
    } else {
      return { ok: false, reason: 'corrupt' };
    }
    if (total > maxTotal) return { ok: false, reason: 'too_big' };
  }
  return { ok: true, total };
}
