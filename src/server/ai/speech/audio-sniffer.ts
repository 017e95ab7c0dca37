// What an audio file is (WAV, MP3 or M4A), judged from its bytes as they stream past, keeping only
// what the judgement needs: the first 256 KB (RIFF header and fmt chunk, ID3 header), a 16 KB
// window where the MP3 frames begin (after an ID3 tag, which can hold megabytes of cover art), and
// a walk over the MP4 top-level boxes that skips their contents. An upload is thus judged while
// it goes to storage, never held whole; sniffAudio(bytes) is the same judgement over one buffer.
import { checkWav } from '../../modules/voice/wav-check';

export type AudioFormat = 'wav' | 'mp3' | 'm4a';

export type AudioSniff = { ok: true; format: AudioFormat } | { ok: false; reason: 'empty' | 'not-audio' | 'truncated' | 'wav-format' };

/** MPEG-1/2/2.5 Layer III bitrates (kbit/s) by [version is MPEG-1][index]. */
const BITRATES = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** The byte length of the Layer III frame whose header starts at `at`, or 0 when it is not one. */
export function mp3FrameLength(b: Uint8Array, at: number): number {
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return 0;
  const version = (b[at + 1]! >> 3) & 0x03; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5, 1 reserved
  const layer = (b[at + 1]! >> 1) & 0x03; // 1 = Layer III
  if (version === 1 || layer !== 1) return 0;
  const bitrateIndex = b[at + 2]! >> 4;
  const rateIndex = (b[at + 2]! >> 2) & 0x03;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return 0;
  const padding = (b[at + 2]! >> 1) & 0x01;
  const bitrate = (version === 3 ? BITRATES.v1 : BITRATES.v2)[bitrateIndex]! * 1000;
  const sampleRate = SAMPLE_RATES[version]![rateIndex]!;
  const samplesPerFrame = version === 3 ? 1152 : 576;
  return Math.floor((samplesPerFrame / 8) * (bitrate / sampleRate)) + padding;
}

/** Where the MP3 frames begin: after an ID3v2 tag when there is one (read from its 10-byte header). */
export function mp3Start(b: Uint8Array): number {
  if (b.length >= 10 && b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33) {
    const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
    return 10 + size + (b[5]! & 0x10 ? 10 : 0);
  }
  return 0;
}

/** Frames needed in a row before a file counts as MP3 (a stray 0xFFE is not enough). */
const MP3_FRAMES_TO_TRUST = 3;
/** Padding some encoders leave before the first frame. */
const MP3_SEARCH_BYTES = 4096;
/** The search plus three of the largest frames (1441 bytes at 320 kbit/s, 32 kHz) fit in this window. */
const MP3_WINDOW_BYTES = 16 * 1024;
/** Enough for any real WAV header (fmt and the small chunks before data) and the ID3 header. */
const HEAD_BYTES = 256 * 1024;

/**
 * The MP3 verdict from the window of bytes starting where the frames begin (`windowAt`), in a
 * file of `total` bytes.
 */
function sniffMp3(window: Uint8Array, windowAt: number, total: number): AudioSniff | undefined {
  if (windowAt > 0 && windowAt >= total) return { ok: false, reason: 'truncated' };
  const searchEnd = Math.min(window.length, MP3_SEARCH_BYTES);
  for (let at = 0; at < searchEnd; at++) {
    if (window[at] !== 0xff) continue;
    let frames = 0;
    let p = at;
    while (frames < MP3_FRAMES_TO_TRUST) {
      const len = mp3FrameLength(window, p);
      if (len === 0) break;
      frames++;
      p += len;
      if (windowAt + p > total) return { ok: false, reason: 'truncated' };
    }
    if (frames >= MP3_FRAMES_TO_TRUST || (frames > 0 && windowAt + p === total)) return { ok: true, format: 'mp3' };
  }
  return windowAt > 0 ? { ok: false, reason: 'truncated' } : undefined;
}

/** Collects the bytes of the stream in [from, from + length) as chunks go past. */
class ByteWindow {
  private parts: Uint8Array[] = [];
  private held = 0;
  constructor(
    readonly from: number,
    private readonly length: number,
  ) {}

  offer(chunk: Uint8Array, chunkAt: number): void {
    const start = Math.max(this.from + this.held, chunkAt);
    const end = Math.min(this.from + this.length, chunkAt + chunk.length);
    if (end <= start || start !== this.from + this.held) return;
    this.parts.push(chunk.subarray(start - chunkAt, end - chunkAt));
    this.held += end - start;
  }

  bytes(): Uint8Array {
    if (this.parts.length !== 1) this.parts = [Buffer.concat(this.parts)];
    return this.parts[0]!;
  }
}

function boxType(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
}

/**
 * Walks MP4 top-level boxes as the bytes stream past, reading only their headers: a real M4A has
 * its sample table (moov) and its media (mdat), and no box runs past the end of the file.
 */
class Mp4BoxWalk {
  private next = 0;
  private header: number[] = [];
  private readonly seen = new Set<string>();
  private failure: AudioSniff | undefined;
  /** A box of size 0 runs to the end of the file: nothing after it is a box. */
  private toEnd = false;

  push(chunk: Uint8Array, chunkAt: number): void {
    let i = Math.max(0, this.next - chunkAt);
    while (i < chunk.length && !this.failure && !this.toEnd) {
      const boxAt = this.next;
      this.header.push(chunk[i]!);
      i++;
      if (this.header.length < 8) continue;
      const h = Uint8Array.from(this.header);
      const view = new DataView(h.buffer);
      let size = view.getUint32(0);
      if (size === 1) {
        if (this.header.length < 16) continue;
        size = Number(view.getBigUint64(8));
      } else if (size === 0) {
        this.seen.add(boxType(h, 4));
        this.toEnd = true;
        break;
      }
      if (size < 8) {
        this.failure = { ok: false, reason: 'not-audio' };
        break;
      }
      this.seen.add(boxType(h, 4));
      this.header = [];
      this.next = boxAt + size;
      i = Math.max(i, this.next - chunkAt);
    }
  }

  verdict(total: number): AudioSniff {
    if (this.failure) return this.failure;
    // A large-size header cut before its 64-bit size, or a box running past the end.
    if (this.header.length >= 8 && !this.toEnd) return { ok: false, reason: 'truncated' };
    if (this.next > total) return { ok: false, reason: 'truncated' };
    return this.seen.has('moov') && this.seen.has('mdat') ? { ok: true, format: 'm4a' } : { ok: false, reason: 'truncated' };
  }
}

export class AudioSniffer {
  private total = 0;
  private readonly head = new ByteWindow(0, HEAD_BYTES);
  private mp3Window: ByteWindow | undefined;
  private readonly boxes = new Mp4BoxWalk();
  /** Chunks seen before the MP3 window's start was known (it needs the first 10 bytes). */
  private early: { chunk: Uint8Array; at: number }[] = [];

  push(chunk: Uint8Array): void {
    const at = this.total;
    this.total += chunk.length;
    this.head.offer(chunk, at);
    this.boxes.push(chunk, at);
    if (this.mp3Window) {
      this.mp3Window.offer(chunk, at);
      return;
    }
    this.early.push({ chunk, at });
    if (this.total >= 10) this.openMp3Window();
  }

  private openMp3Window(): void {
    this.mp3Window = new ByteWindow(mp3Start(this.head.bytes()), MP3_WINDOW_BYTES);
    for (const { chunk, at } of this.early) this.mp3Window.offer(chunk, at);
    this.early = [];
  }

  finish(): AudioSniff {
    const total = this.total;
    if (total === 0) return { ok: false, reason: 'empty' };
    const head = this.head.bytes();
    if (head.length >= 4 && boxType(head, 0) === 'RIFF') {
      const wav = checkWav(head, total);
      if (wav.ok) return { ok: true, format: 'wav' };
      return { ok: false, reason: wav.reason === 'truncated' || wav.reason === 'empty' ? 'truncated' : wav.reason === 'format' ? 'wav-format' : 'not-audio' };
    }
    if (head.length >= 12 && boxType(head, 4) === 'ftyp') return this.boxes.verdict(total);
    if (!this.mp3Window) this.openMp3Window();
    return sniffMp3(this.mp3Window!.bytes(), this.mp3Window!.from, total) ?? { ok: false, reason: 'not-audio' };
  }
}

export function sniffAudio(bytes: Uint8Array): AudioSniff {
  const sniffer = new AudioSniffer();
  sniffer.push(bytes);
  return sniffer.finish();
}
