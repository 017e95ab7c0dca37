// Real audio bytes for the provider fakes: a 16-bit PCM WAV tone, and MPEG-1 Layer III frames
// (valid frames whose spectral data is empty: they decode to silence in any mp3 decoder, with
// the duration the frame count says). Both play in a browser's <audio>.

/** A buffer for `n` mono 16-bit samples at `sampleRate`, its 44-byte WAV header written (samples from byte 44). */
export function monoWavBuffer(n: number, sampleRate: number): Buffer {
  const out = Buffer.alloc(44 + n * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + n * 2, 4);
  out.write('WAVE', 8);
  out.write('fmt ', 12);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(n * 2, 40);
  return out;
}

/** A mono 16-bit PCM WAV of a soft tone (`seconds` long). */
export function toneWav(seconds: number, sampleRate = 24000, hz = 440): Uint8Array {
  const n = Math.max(1, Math.round(seconds * sampleRate));
  const out = monoWavBuffer(n, sampleRate);
  for (let i = 0; i < n; i++) out.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / sampleRate) * 6000), 44 + i * 2);
  return new Uint8Array(out);
}

/** 128 kbps, 44.1 kHz, mono, no CRC: 417-byte frames of 1152 samples (26.1 ms) each. */
const MP3_FRAME_HEADER = [0xff, 0xfb, 0x90, 0xc4];
const MP3_FRAME_BYTES = 417;

export function silentMp3(seconds: number): Uint8Array {
  const frames = Math.max(1, Math.ceil((seconds * 44100) / 1152));
  const out = new Uint8Array(frames * MP3_FRAME_BYTES);
  for (let f = 0; f < frames; f++) out.set(MP3_FRAME_HEADER, f * MP3_FRAME_BYTES);
  return out;
}

/** Roughly how long a text takes to say (about 15 characters a second), at least 0.5 s. */
export function speechSeconds(text: string): number {
  return Math.max(0.5, text.length / 15);
}
