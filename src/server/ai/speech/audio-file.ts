// Audio files people upload to be transcribed (speeches, interviews, recordings): what they are,
// judged by their bytes (never the name or the browser's type), and how they are cut into pieces
// a speech-to-text service accepts, without decoding: WAV at sample boundaries, MP3 at frame
// boundaries. M4A (MP4 boxes) is sent whole: the 20 MB upload cap is under the 25 MB that
// OpenAI-compatible transcription accepts, and re-muxing MP4 needs a decoder we do not ship.
import { checkWav } from '../../modules/voice/wav-check';
import { mp3FrameLength, mp3Start, type AudioFormat, type AudioSniff } from './audio-sniffer';
import { messages } from '../../../shared/messages';

export type { AudioFormat, AudioSniff } from './audio-sniffer';
export { sniffAudio, mp3FrameLength } from './audio-sniffer';

export const AUDIO_MIME: Record<AudioFormat, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4' };

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
