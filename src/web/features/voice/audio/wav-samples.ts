// 16-bit PCM WAV straight into an AudioBuffer: the samples are copied as they are, with no
// decoder to start (decodeAudioData took ~100 ms for a sentence on a busy machine; this takes
// about one). Open mic asks for WAV for this reason (the same voice as MP3, uncompressed). Anything
// else (MP3, another sample format) returns null and goes through decodeAudioData.

export interface PcmLayout {
  channels: number;
  sampleRate: number;
  dataOffset: number;
  /** Whole frames in these bytes. */
  frames: number;
  /** The data chunk's length as its header says; null when a streamed WAV does not know it (0 or 0xffffffff). */
  declaredBytes: number | null;
}

/** Where a 16-bit PCM WAV's samples are and how they are laid out; null for anything else, or a header not all here yet. */
export function pcmLayout(bytes: Uint8Array): PcmLayout | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let channels = 0;
  let sampleRate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ') {
      if (at + 24 > bytes.length) return null;
      const format = view.getUint16(at + 8, true);
      channels = view.getUint16(at + 10, true);
      sampleRate = view.getUint32(at + 12, true);
      const bits = view.getUint16(at + 22, true);
      // PCM (1), or WAVE_FORMAT_EXTENSIBLE (0xfffe) carrying PCM, 16-bit only.
      if ((format !== 1 && format !== 0xfffe) || bits !== 16 || channels < 1 || sampleRate < 3000) return null;
    } else if (id === 'data') {
      if (!channels) return null;
      // A streamed WAV may not know its length (0 or 0xffffffff): the data runs to the end.
      const known = size !== 0 && size !== 0xffffffff;
      const available = bytes.length - (at + 8);
      const length = known && size <= available ? size : available;
      return { channels, sampleRate, dataOffset: at + 8, frames: Math.floor(length / (2 * channels)), declaredBytes: known ? size : null };
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

/** The WAV's samples as an AudioBuffer of `context` (its own sample rate; the context resamples as it plays), or null. */
export function wavToAudioBuffer(context: BaseAudioContext, bytes: Uint8Array): AudioBuffer | null {
  const layout = pcmLayout(bytes);
  if (!layout || layout.frames === 0) return null;
  const { channels, sampleRate, dataOffset, frames } = layout;
  let buffer: AudioBuffer;
  try {
    buffer = context.createBuffer(channels, frames, sampleRate);
  } catch {
    return null;
  }
  copyPcm16(bytes.subarray(dataOffset), channels, frames, (ch) => buffer.getChannelData(ch));
  return buffer;
}

/** `frames` interleaved 16-bit little-endian frames from the start of `data` into each channel's floats. */
export function copyPcm16(data: Uint8Array, channels: number, frames: number, channel: (ch: number) => Float32Array): void {
  const view = new DataView(data.buffer, data.byteOffset, frames * channels * 2);
  for (let ch = 0; ch < channels; ch++) {
    const out = channel(ch);
    for (let i = 0, at = ch * 2; i < frames; i++, at += channels * 2) out[i] = view.getInt16(at, true) / 32768;
  }
}
