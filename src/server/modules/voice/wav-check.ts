// Checks an uploaded recording by its bytes, never its name or declared type: a RIFF/WAVE file
// with a PCM 16-bit fmt chunk (mono or stereo, 8-48 kHz) and a data chunk whose declared length
// the file actually holds. The browser sends 16 kHz mono; anything else is refused with a reason.
import { messages } from '../../../shared/messages';

export type WavCheck =
  | { ok: true; sampleRate: number; channels: number; seconds: number; dataOffset: number; dataBytes: number }
  | { ok: false; reason: 'empty' | 'not-wav' | 'truncated' | 'format'; message: string };

const fail = (reason: Exclude<WavCheck, { ok: true }>['reason']): WavCheck => ({
  ok: false,
  reason,
  message:
    reason === 'empty'
      ? messages.voice.emptyAudio
      : reason === 'truncated'
        ? messages.voice.truncatedAudio
        : reason === 'format'
          ? messages.voice.badAudioFormat
          : messages.voice.notWav,
});

function tag(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
}

/**
 * `bytes` is the whole file, or only its beginning when the file streams past (an upload judged on
 * its way to storage): then `totalBytes` is the whole length, and the data chunk's declared length
 * is checked against it.
 */
export function checkWav(bytes: Uint8Array, totalBytes = bytes.byteLength): WavCheck {
  if (totalBytes === 0) return fail('empty');
  if (bytes.byteLength < 12 || tag(bytes, 0) !== 'RIFF' || tag(bytes, 8) !== 'WAVE') {
    // A RIFF prefix cut before "WAVE" is a truncated file, anything else is not a WAV at all.
    return bytes.byteLength < 12 && 'RIFF'.startsWith(String.fromCharCode(...bytes.slice(0, 4))) ? fail('truncated') : fail('not-wav');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  let fmt: { format: number; channels: number; rate: number; bits: number; blockAlign: number } | undefined;
  while (at + 8 <= bytes.byteLength) {
    const id = tag(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.byteLength) return fail('truncated');
      fmt = {
        format: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
        blockAlign: view.getUint16(body + 12, true),
      };
      // WAVE_FORMAT_EXTENSIBLE carries the real format in its sub-format GUID's first two bytes.
      if (fmt.format === 0xfffe && size >= 40 && body + 26 <= bytes.byteLength) fmt.format = view.getUint16(body + 24, true);
    } else if (id === 'data') {
      if (!fmt) return fail('not-wav');
      if (fmt.format !== 1 || fmt.bits !== 16 || fmt.channels < 1 || fmt.channels > 2 || fmt.rate < 8000 || fmt.rate > 48000) {
        return fail('format');
      }
      if (fmt.blockAlign !== fmt.channels * 2) return fail('format');
      // Streaming writers put 0xFFFFFFFF (or 0) when the length was unknown: take what is there.
      const open = size === 0xffffffff || size === 0;
      const available = totalBytes - body;
      if (!open && size > available) return fail('truncated');
      const dataBytes = open ? available - (available % fmt.blockAlign) : size;
      if (dataBytes === 0) return fail('empty');
      return { ok: true, sampleRate: fmt.rate, channels: fmt.channels, seconds: dataBytes / (fmt.rate * fmt.blockAlign), dataOffset: body, dataBytes };
    }
    // Chunks are padded to an even length.
    at = body + size + (size % 2);
  }
  return fmt ? fail('truncated') : fail(totalBytes < 44 ? 'truncated' : 'not-wav');
}
