// A sentence's WAV as it streams in (open mic's voice turn, `speech` then `speech-more` events):
// the 16-bit PCM samples are handed out as soon as whole frames have arrived, so the first ~80 ms
// play while the rest is still on its way. Pieces split anywhere: inside the header, or between
// the two bytes of a sample. Audio that is not 16-bit PCM WAV is only `unsupported`: the player
// waits for all of it (`bytes()`) and decodes it whole.
import { copyPcm16, pcmLayout, type PcmLayout } from './wav-samples';

export interface PcmFrames {
  sampleRate: number;
  /** One array per channel, all of the same length. */
  channels: Float32Array<ArrayBuffer>[];
}

/** A header longer than this (with nothing playable found) is not one we can stream. */
const HEADER_MAX = 4096;

export class ArrivingWav {
  private readonly parts: Uint8Array[] = [];
  private received = 0;
  private layout: PcmLayout | null = null;
  /** Bytes of the data chunk not yet handed out (less than a frame, or not yet taken). */
  private pending: Uint8Array = new Uint8Array(0);
  /** Data bytes still expected, when the header says how many. */
  private dataLeft = Infinity;
  private waiting: (() => void) | null = null;
  ended = false;
  unsupported = false;

  /** The next bytes, in order. */
  push(bytes: Uint8Array): void {
    if (this.ended) return;
    this.parts.push(bytes);
    this.received += bytes.length;
    if (this.layout) this.addData(bytes);
    else if (!this.unsupported) this.readHeader();
    this.wake();
  }

  /** No more bytes will come. */
  end(): void {
    this.ended = true;
    if (!this.layout) this.unsupported = true;
    this.wake();
  }

  /** The whole frames that arrived since the last call, or null when there are none (yet). */
  take(): PcmFrames | null {
    const layout = this.layout;
    if (!layout) return null;
    const frameBytes = layout.channels * 2;
    const frames = Math.floor(this.pending.length / frameBytes);
    if (frames === 0) return null;
    const channels = Array.from({ length: layout.channels }, () => new Float32Array(frames));
    copyPcm16(this.pending, layout.channels, frames, (ch) => channels[ch]!);
    this.pending = this.pending.slice(frames * frameBytes);
    return { sampleRate: layout.sampleRate, channels };
  }

  /** Resolves at the next push or end. */
  arrival(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const before = this.waiting;
      this.waiting = () => (before?.(), resolve());
    });
  }

  /** Everything received, as one file (for replay, or a format played whole). */
  bytes(): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(this.received);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  private readHeader() {
    const all = this.bytes();
    const layout = pcmLayout(all);
    if (!layout) {
      if (all.length > HEADER_MAX) this.unsupported = true;
      return;
    }
    this.layout = layout;
    if (layout.declaredBytes !== null) this.dataLeft = layout.declaredBytes;
    this.addData(all.subarray(layout.dataOffset));
  }

  private addData(bytes: Uint8Array) {
    const kept = bytes.subarray(0, Math.min(bytes.length, this.dataLeft));
    this.dataLeft -= kept.length;
    if (kept.length === 0) return;
    const joined = new Uint8Array(this.pending.length + kept.length);
    joined.set(this.pending);
    joined.set(kept, this.pending.length);
    this.pending = joined;
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}
