// A WAV streaming in, cut anywhere: the samples come out as soon as whole frames are there, equal
// to the file's, nothing past the data chunk's declared length; what is not 16-bit PCM is only
// kept whole.
import { describe, expect, it } from 'vitest';
import { ArrivingWav } from './arriving-wav';
import { encodeWav } from './wav-encoder';

const SAMPLES = Float32Array.from({ length: 101 }, (_, i) => Math.sin(i / 7) * 0.8);

function takeAll(wav: ArrivingWav, into: number[]) {
  for (let f = wav.take(); f; f = wav.take()) into.push(...f.channels[0]!);
}

describe('ArrivingWav', () => {
  it('hands out the samples as they arrive, whatever the cuts (inside the header, inside a sample)', () => {
    const file = encodeWav(SAMPLES, 24000);
    for (const cut of [1, 3, 7, 43, 45, 50]) {
      const wav = new ArrivingWav();
      const out: number[] = [];
      let playableAt = -1;
      for (let at = 0; at < file.length; at += cut) {
        wav.push(file.subarray(at, at + cut));
        const before = out.length;
        takeAll(wav, out);
        if (playableAt < 0 && out.length > before) playableAt = at + cut;
      }
      wav.end();
      takeAll(wav, out);
      expect(out.length).toBe(SAMPLES.length);
      out.forEach((v, i) => expect(Math.abs(v - SAMPLES[i]!)).toBeLessThan(1 / 16000));
      // The first sample is playable as soon as the header and its two bytes are in.
      expect(playableAt).toBeLessThanOrEqual(44 + 2 + cut - 1);
      expect(wav.bytes()).toEqual(file);
    }
  });

  it('tells the sample rate and keeps stereo frames together', () => {
    const stereo = encodeWav(Float32Array.from([0.5, -0.5, 0.25, -0.25]), 22050);
    // encodeWav writes mono: rewrite its header as two channels of two frames.
    const view = new DataView(stereo.buffer);
    view.setUint16(22, 2, true);
    view.setUint32(28, 22050 * 4, true);
    view.setUint16(32, 4, true);
    const wav = new ArrivingWav();
    wav.push(stereo.subarray(0, 50)); // a frame and a half (4 bytes a frame)
    const first = wav.take()!;
    expect(first.sampleRate).toBe(22050);
    expect(first.channels.map((c) => Array.from(c, (v) => Math.round(v * 100) / 100))).toEqual([[0.5], [-0.5]]);
    wav.push(stereo.subarray(50));
    const second = wav.take()!;
    expect(second.channels.map((c) => Array.from(c, (v) => Math.round(v * 100) / 100))).toEqual([[0.25], [-0.25]]);
  });

  it('stops at the declared data length (a chunk after the samples is not played), and runs to the end when the length is unknown', () => {
    const file = encodeWav(Float32Array.from([0.1, 0.2, 0.3]), 16000);
    const trailer = new Uint8Array([0x4c, 0x49, 0x53, 0x54, 2, 0, 0, 0, 9, 9]);
    const known = new ArrivingWav();
    known.push(file);
    known.push(trailer);
    expect(known.take()!.channels[0]!.length).toBe(3);
    expect(known.take()).toBeNull();

    const unknown = encodeWav(Float32Array.from([0.1, 0.2, 0.3, 0.4]), 16000);
    new DataView(unknown.buffer).setUint32(40, 0xffffffff, true);
    const streamed = new ArrivingWav();
    streamed.push(unknown.subarray(0, 46));
    streamed.push(unknown.subarray(46));
    const out: number[] = [];
    takeAll(streamed, out);
    expect(out.length).toBe(4);
  });

  it('MP3 and 8-bit WAV are not streamed: they are kept whole for the decoder', () => {
    const mp3 = new ArrivingWav();
    mp3.push(Uint8Array.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3, 4, 5, 6, 7, 8]));
    expect(mp3.take()).toBeNull();
    expect(mp3.unsupported).toBe(false); // not known yet: more bytes might make a header
    mp3.end();
    expect(mp3.unsupported).toBe(true);
    expect(mp3.bytes().length).toBe(12);

    const eightBit = encodeWav(Float32Array.from(new Array(3000).fill(0.1)), 16000);
    new DataView(eightBit.buffer).setUint16(34, 8, true);
    const wav = new ArrivingWav();
    wav.push(eightBit);
    expect(wav.take()).toBeNull();
    expect(wav.unsupported).toBe(true);
  });

  it('arrival() waits for the next bytes or the end', async () => {
    const wav = new ArrivingWav();
    let woke = 0;
    const waiting = wav.arrival().then(() => (woke += 1));
    await Promise.resolve();
    expect(woke).toBe(0);
    wav.push(new Uint8Array([1]));
    await waiting;
    expect(woke).toBe(1);
    const ending = wav.arrival();
    wav.end();
    await ending;
    await wav.arrival(); // ended: at once
  });
});
