import { describe, expect, it } from 'vitest';
import { AudioSniffer, sniffAudio, type AudioSniff } from './audio-sniffer';
import { silentMp3 } from '../../../../tests/fakes/fake-audio';
import { silentWav16, wav16 } from '../../modules/voice/voice.test-support';

/** The verdict when the bytes arrive in chunks of `size` (the last one shorter). */
function streamed(bytes: Uint8Array, size: number): AudioSniff {
  const sniffer = new AudioSniffer();
  for (let at = 0; at < bytes.length; at += size) sniffer.push(bytes.subarray(at, at + size));
  return sniffer.finish();
}

function box(type: string, body: Uint8Array | number): Uint8Array {
  const content = typeof body === 'number' ? new Uint8Array(body) : body;
  const out = new Uint8Array(8 + content.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(content, 8);
  return out;
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** An ID3v2 tag of `size` bytes of content (cover art, say) in front of the frames. */
function id3(size: number): Uint8Array {
  const tag = new Uint8Array(10 + size);
  tag.set([0x49, 0x44, 0x33, 4, 0, 0]);
  tag.set([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f], 6);
  return tag;
}

const mp3 = silentMp3(2);
const m4a = concat(box('ftyp', Buffer.from('M4A \0\0\0\0', 'latin1')), box('mdat', 3_000_000), box('moov', 400));
const cases: [string, Uint8Array, AudioSniff][] = [
  ['a WAV', silentWav16(1), { ok: true, format: 'wav' }],
  ['a WAV cut inside its data', silentWav16(1).subarray(0, 20_000), { ok: false, reason: 'truncated' }],
  ['a 44.1 kHz stereo WAV', wav16(new Int16Array(44_100 * 2), 44_100, 2), { ok: true, format: 'wav' }],
  ['an 8-bit WAV', (() => { const w = silentWav16(1).slice(); w[34] = 8; return w; })(), { ok: false, reason: 'wav-format' }],
  ['an MP3', mp3, { ok: true, format: 'mp3' }],
  ['an MP3 behind a 600 KB ID3 tag', concat(id3(600_000), mp3), { ok: true, format: 'mp3' }],
  ['an ID3 tag with no frames after it', id3(600_000).subarray(0, 300_000), { ok: false, reason: 'truncated' }],
  ['an MP3 cut inside its second frame', mp3.subarray(0, 417 + 100), { ok: false, reason: 'truncated' }],
  ['an M4A with its moov after 3 MB of media', m4a, { ok: true, format: 'm4a' }],
  ['an M4A cut inside its media', m4a.subarray(0, 1_000_000), { ok: false, reason: 'truncated' }],
  ['an MP4 box shorter than its header', concat(box('ftyp', 8), new Uint8Array([0, 0, 0, 4, 0x6d, 0x6f, 0x6f, 0x76])), { ok: false, reason: 'not-audio' }],
  ['text', Buffer.from('This is not audio at all, only words.'), { ok: false, reason: 'not-audio' }],
  ['nothing', new Uint8Array(0), { ok: false, reason: 'empty' }],
];

describe('audio judged as it streams', () => {
  it.each(cases)('%s: the same verdict whole and in chunks of any size', (_name, bytes, verdict) => {
    expect(sniffAudio(bytes)).toEqual(verdict);
    for (const size of [1, 7, 4096, 65_536, 1_000_003]) expect(streamed(bytes, size)).toEqual(verdict);
  });
});
