// Long text is spoken in sentence-sized pieces, each by its own flite instance, and their WAVs are
// joined into one: an instance's memory stays small whatever the text's length, and a request can
// be given up between pieces (a visitor who left no longer holds the voice for a whole text).

/** Where a sentence may end: after . ! ? … ; : (and a closing quote or bracket), or at a line break. */
const SENTENCE_BREAK = /(?<=[.!?…;:]["'”’)\]]*)\s+|\s*\n\s*/;

/**
 * The text in pieces of at most `maxChars` characters: whole sentences, as many as fit together
 * (each instance costs ~200 ms to start, so one per short sentence would triple a long text's time);
 * a sentence longer than that is cut after a comma, else at a space, else anywhere.
 */
export function splitIntoPieces(text: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const sentence of text.split(SENTENCE_BREAK)) {
    for (const part of cutToLength(sentence.trim(), maxChars)) {
      if (!part) continue;
      if (current && current.length + 1 + part.length <= maxChars) {
        current += ` ${part}`;
      } else {
        if (current) pieces.push(current);
        current = part;
      }
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

function cutToLength(sentence: string, maxChars: number): string[] {
  const parts: string[] = [];
  let rest = sentence;
  while (rest.length > maxChars) {
    const head = rest.slice(0, maxChars + 1);
    const comma = head.lastIndexOf(',', maxChars - 1);
    const space = head.lastIndexOf(' ');
    const cut = comma > 0 ? comma + 1 : space > 0 ? space : maxChars;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  parts.push(rest);
  return parts;
}

interface WavParts {
  fmt: Uint8Array;
  data: Uint8Array;
}

function readWav(wav: Uint8Array): WavParts {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const tag = (at: number) => String.fromCharCode(...wav.subarray(at, at + 4));
  if (wav.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('flite wrote something other than a WAV');
  let fmt: Uint8Array | undefined;
  for (let at = 12; at + 8 <= wav.length; ) {
    const size = view.getUint32(at + 4, true);
    const body = wav.subarray(at + 8, Math.min(wav.length, at + 8 + size));
    if (tag(at) === 'fmt ') fmt = body;
    if (tag(at) === 'data') {
      if (!fmt) break;
      return { fmt, data: body };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('flite wrote a WAV without its format or samples');
}

/** The pieces' samples, in order, under one header (all of flite's WAVs share one format). */
export function joinWavs(wavs: Uint8Array[]): Uint8Array {
  if (wavs.length === 1) return wavs[0]!;
  const parts = wavs.map(readWav);
  const fmt = parts[0]!.fmt;
  if (parts.some((p) => !sameBytes(p.fmt, fmt))) throw new Error('flite wrote pieces in different formats');
  const dataLength = parts.reduce((n, p) => n + p.data.length, 0);
  const out = new Uint8Array(12 + 8 + fmt.length + 8 + dataLength);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => out.set(Array.from(s, (c) => c.charCodeAt(0)), at);
  ascii(0, 'RIFF');
  view.setUint32(4, out.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, fmt.length, true);
  out.set(fmt, 20);
  let at = 20 + fmt.length;
  ascii(at, 'data');
  view.setUint32(at + 4, dataLength, true);
  at += 8;
  for (const p of parts) {
    out.set(p.data, at);
    at += p.data.length;
  }
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
