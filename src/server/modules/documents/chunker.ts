// Splits clean text into overlapping chunks of about `size` characters. Boundaries fall between
// sentences, and paragraphs keep their blank line, so a chunk reads as prose; a sentence longer
// than a chunk is cut at a space (or, with no space at all, anywhere). The next chunk repeats the
// last sentences of the previous one, up to `overlap` characters, so a passage cut in two is still
// found whole. Linear in the text's length (a 10 MB single line included).

export interface ChunkOptions {
  size: number;
  overlap: number;
}

interface Unit {
  text: string;
  /** Starts a paragraph (joined with a blank line rather than a space). */
  para: boolean;
}

const SENTENCE_BREAK = /(?<=[.!?\u2026]["'\u201D\u2019)\]]*)\s+|\n/;

export function chunkText(text: string, opts: ChunkOptions): string[] {
  const size = Math.max(50, opts.size);
  const overlap = Math.max(0, Math.min(opts.overlap, Math.floor(size / 2)));
  const units = toUnits(text, size);
  const chunks: string[] = [];
  // The chunk being built is units[from..to) with `length` characters once joined.
  let from = 0;
  let length = 0;
  const sep = (i: number) => (units[i]!.para ? 2 : 1);

  for (let to = 0; to < units.length; to++) {
    const unit = units[to]!;
    if (to > from && length + sep(to) + unit.text.length > size) {
      chunks.push(join(units, from, to));
      // Carry the tail sentences (never the whole chunk, so every chunk moves forward), as many
      // as fit in `overlap` and still leave room for the unit that did not fit.
      let tailFrom = to;
      let tailLength = 0;
      while (tailFrom - 1 > from) {
        const u = units[tailFrom - 1]!;
        const next = tailLength + u.text.length + (tailFrom < to ? 1 : 0);
        if (next > overlap || next + 1 + unit.text.length > size) break;
        tailFrom--;
        tailLength = next;
      }
      from = tailFrom;
      length = tailFrom < to ? tailLength : 0;
    }
    length = to === from ? unit.text.length : length + sep(to) + unit.text.length;
  }
  if (from < units.length) chunks.push(join(units, from, units.length));
  return chunks;
}

/** units[from..to) as text; the first unit never carries a separator. */
function join(units: Unit[], from: number, to: number): string {
  const parts: string[] = [units[from]!.text];
  for (let i = from + 1; i < to; i++) parts.push(units[i]!.para ? '\n\n' : ' ', units[i]!.text);
  return parts.join('');
}

function toUnits(text: string, size: number): Unit[] {
  const units: Unit[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    let first = true;
    for (const raw of paragraph.split(SENTENCE_BREAK)) {
      const sentence = raw?.trim();
      if (!sentence) continue;
      if (sentence.length <= size) {
        units.push({ text: sentence, para: first });
      } else {
        for (const piece of splitLong(sentence, size)) {
          units.push({ text: piece, para: first });
          first = false;
        }
      }
      first = false;
    }
  }
  return units;
}

/** Pieces of at most `size` characters, cut at the last space in the second half when there is one. */
function splitLong(sentence: string, size: number): string[] {
  if (sentence.length <= size) return [sentence];
  const pieces: string[] = [];
  let start = 0;
  while (sentence.length - start > size) {
    let end = start + size;
    // Look back no further than half a chunk: bounded work per piece keeps the whole split linear.
    const floor = start + Math.floor(size / 2);
    for (let i = end; i > floor; i--) {
      if (sentence.charCodeAt(i) === 32) {
        end = i;
        break;
      }
    }
    // Never split a surrogate pair.
    const code = sentence.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
    pieces.push(sentence.slice(start, end).trim());
    start = end;
    while (sentence[start] === ' ') start++;
  }
  if (start < sentence.length) pieces.push(sentence.slice(start).trim());
  return pieces.filter((p) => p.length > 0);
}
