// Audio files people upload to be transcribed (speeches, interviews, recordings): what they are,
// judged by their bytes (never the name or the browser's type), and how they are cut into pieces
// a speech-to-text service accepts, without decoding: WAV at sample boundaries, MP3 at frame
// boundaries. M4A (MP4 boxes) is sent whole: the 20 MB upload cap is under the 25 MB that
// OpenAI-compatible transcription accepts, and re-muxing MP4 needs a decoder we do not ship.
import { checkWav } from '../../modules/voice/wav-check';
import { messages } from '../../../shared/messages';

export type AudioFormat = 'wav' | 'mp3' | 'm4a';

export const AUDIO_MIME: Record<AudioFormat, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4' };

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

/** Where the MP3 frames begin: after an ID3v2 tag when there is one. */
function mp3Start(b: Uint8Array): number {
  if (b.length >= 10 && b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33) {
    const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
    return 10 + size + (b[5]! & 0x10 ? 10 : 0);
  }
  return 0;
}

/** Frames needed in a row before a file counts as MP3 (a stray 0xFFE is not enough). */
const MP3_FRAMES_TO_TRUST = 3;

function sniffMp3(b: Uint8Array): AudioSniff | undefined {
  const start = mp3Start(b);
  if (start > 0 && start >= b.length) return { ok: false, reason: 'truncated' };
  // Some encoders leave a little padding before the first frame.
  const searchEnd = Math.min(b.length, start + 4096);
  for (let at = start; at < searchEnd; at++) {
    if (b[at] !== 0xff) continue;
    let frames = 0;
    let p = at;
    while (frames < MP3_FRAMES_TO_TRUST) {
      const len = mp3FrameLength(b, p);
      if (len === 0) break;
      frames++;
      p += len;
      if (p > b.length) return { ok: false, reason: 'truncated' };
    }
    if (frames >= MP3_FRAMES_TO_TRUST || (frames > 0 && p === b.length)) return { ok: true, format: 'mp3' };
  }
  return start > 0 ? { ok: false, reason: 'truncated' } : undefined;
}

function boxType(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
}

function sniffM4a(b: Uint8Array): AudioSniff | undefined {
  if (b.length < 12 || boxType(b, 4) !== 'ftyp') return undefined;
  // Walk the top-level boxes: a real file has its sample table (moov) and its media (mdat), and no
  // box runs past the end.
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = 0;
  const seen = new Set<string>();
  while (at + 8 <= b.length) {
    let size = view.getUint32(at);
    const type = boxType(b, at + 4);
    if (size === 1) {
      if (at + 16 > b.length) return { ok: false, reason: 'truncated' };
      size = Number(view.getBigUint64(at + 8));
    } else if (size === 0) size = b.length - at;
    if (size < 8) return { ok: false, reason: 'not-audio' };
    if (at + size > b.length) return { ok: false, reason: 'truncated' };
    seen.add(type);
    at += size;
  }
  return seen.has('moov') && seen.has('mdat') ? { ok: true, format: 'm4a' } : { ok: false, reason: 'truncated' };
}

export function sniffAudio(bytes: Uint8Array): AudioSniff {
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  if (bytes.length >= 4 && boxType(bytes, 0) === 'RIFF') {
    const wav = checkWav(bytes);
    if (wav.ok) return { ok: true, format: 'wav' };
    return { ok: false, reason: wav.reason === 'truncated' || wav.reason === 'empty' ? 'truncated' : wav.reason === 'format' ? 'wav-format' : 'not-audio' };
  }
  return sniffM4a(bytes) ?? sniffMp3(bytes) ?? { ok: false, reason: 'not-audio' };
}

/** What to tell the person about a file sniffAudio refused (spec section 5's wording for the type). */
export function audioProblemMessage(reason: Exclude<AudioSniff, { ok: true }>['reason']): string {
  switch (reason) {
    case 'empty':
      return messages.documents.audioEmpty;
    case 'truncated':
      return messages.documents.audioTruncated;
    case 'wav-format':
      return messages.documents.audioWavFormat;
    case 'not-audio':
      return messages.documents.audioType;
  }
}

export interface AudioPiece {
  bytes: Uint8Array;
  format: AudioFormat;
}

/** WAV pieces of at most this many seconds (short requests, progress the person can follow). */
export const WAV_PIECE_SECONDS = 120;
/** MP3 pieces of at most this many bytes (about 5 minutes at 128 kbit/s). */
export const MP3_PIECE_BYTES = 5 * 1024 * 1024;

/** Cuts a checked audio file into pieces in order; each piece is a valid file of its format. */
export function splitAudio(bytes: Uint8Array, format: AudioFormat): AudioPiece[] {
  if (format === 'wav') return splitWav(bytes);
  if (format === 'mp3') return splitMp3(bytes);
  return [{ bytes, format }];
}

/** A checked PCM WAV as WAV pieces of at most `pieceSeconds`, with their lengths. */
export function splitWav(bytes: Uint8Array, pieceSeconds = WAV_PIECE_SECONDS): (AudioPiece & { seconds: number })[] {
  const wav = checkWav(bytes);
  if (!wav.ok) return [];
  const blockAlign = wav.channels * 2;
  const pieceBytes = pieceSeconds * wav.sampleRate * blockAlign;
  const pieces: (AudioPiece & { seconds: number })[] = [];
  for (let at = 0; at < wav.dataBytes; at += pieceBytes) {
    const data = bytes.subarray(wav.dataOffset + at, wav.dataOffset + Math.min(wav.dataBytes, at + pieceBytes));
    pieces.push({ bytes: pcmWav(data, wav.sampleRate, wav.channels), format: 'wav', seconds: data.length / (wav.sampleRate * blockAlign) });
  }
  return pieces;
}

function splitMp3(bytes: Uint8Array): AudioPiece[] {
  const pieces: AudioPiece[] = [];
  let at = mp3Start(bytes);
  // Skip anything before the first frame.
  while (at < bytes.length && mp3FrameLength(bytes, at) === 0) at++;
  let pieceStart = at;
  while (at < bytes.length) {
    const len = mp3FrameLength(bytes, at);
    if (len === 0 || at + len > bytes.length) break; // trailing tag (ID3v1) or a cut last frame
    if (at + len - pieceStart > MP3_PIECE_BYTES && at > pieceStart) {
      pieces.push({ bytes: bytes.subarray(pieceStart, at), format: 'mp3' });
      pieceStart = at;
    }
    at += len;
  }
  if (at > pieceStart) pieces.push({ bytes: bytes.subarray(pieceStart, at), format: 'mp3' });
  return pieces;
}

/** A 16-bit PCM WAV around raw samples. */
export function pcmWav(data: Uint8Array, sampleRate: number, channels: number): Uint8Array {
  const out = Buffer.alloc(44 + data.length);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + data.length, 4);
  out.write('WAVE', 8);
  out.write('fmt ', 12);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * channels * 2, 28);
  out.writeUInt16LE(channels * 2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(data.length, 40);
  out.set(data, 44);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/** A checked PCM WAV as 16 kHz mono (what the offline recognizer reads): channels averaged,
 * linear interpolation between samples. */
export function toMono16k(bytes: Uint8Array): Uint8Array | undefined {
  const wav = checkWav(bytes);
  if (!wav.ok) return undefined;
  if (wav.sampleRate === 16000 && wav.channels === 1) return bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset + wav.dataOffset, wav.dataBytes);
  const frames = Math.floor(wav.dataBytes / (wav.channels * 2));
  const mono = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let ch = 0; ch < wav.channels; ch++) sum += view.getInt16((f * wav.channels + ch) * 2, true);
    mono[f] = sum / wav.channels;
  }
  const outFrames = Math.floor((frames * 16000) / wav.sampleRate);
  const out = Buffer.alloc(outFrames * 2);
  for (let j = 0; j < outFrames; j++) {
    const x = (j * wav.sampleRate) / 16000;
    const i = Math.floor(x);
    const a = mono[i] ?? 0;
    const b = mono[i + 1] ?? a;
    out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(a + (b - a) * (x - i)))), j * 2);
  }
  return pcmWav(out, 16000, 1);
}
