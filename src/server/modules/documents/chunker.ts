// Splits clean text into chunks that follow its paragraphs: whole paragraphs are merged, in order,
// up to about `size` characters, and a chunk never ends inside a paragraph that fits in one. A
// paragraph longer than a chunk is cut between sentences (a sentence longer than a chunk at a
// space, or, with no space at all, anywhere), and only there do neighbouring pieces share
// `overlap` characters of whole sentences. Chunks therefore do not repeat one another: five
// retrieved passages are five different places in the documents. Lines inside a paragraph keep
// their line breaks (a heading, a date line, a sign-off stays a line of its own). Linear in the
// text's length (a 10 MB single line included).
export interface ChunkOptions {
  size: number;
  /** Characters of whole sentences shared by the pieces of one paragraph longer than a chunk. */
  overlap: number;
}

interface Unit {
  text: string;
  /** How it joins the unit before it: a new paragraph, a new line, or the same line. */
  sep: '\n\n' | '\n' | ' ';
}

const SENTENCE_BREAK = /(?<=[.!?\u2026]["'\u201D\u2019)\]]*)\s+/;

export function chunkText(text: string, opts: ChunkOptions): string[] {
  const size = Math.max(50, opts.size);
  const overlap = Math.max(0, Math.min(opts.overlap, Math.floor(size / 2)));
  const chunks: string[] = [];
  let current: Unit[] = [];
  let currentLength = 0;
  const flush = () => {
    if (current.length > 0) chunks.push(join(current, 0, current.length));
    current = [];
    currentLength = 0;
  };
  for (const paragraph of text.split(/\n\s*\n/)) {
    const units = toUnits(paragraph, size);
    if (units.length === 0) continue;
    const length = joinedLength(units);
    if (length <= size) {
      if (current.length > 0 && currentLength + 2 + length > size) flush();
      if (current.length > 0) currentLength += 2;
      current.push(...units);
      currentLength += length;
      continue;
    }
    flush();
    chunks.push(...packSentences(units, size, overlap));
  }
  flush();
  return chunks;
}

function joinedLength(units: Unit[]): number {
  let n = 0;
  units.forEach((u, i) => (n += (i === 0 ? 0 : u.sep.length) + u.text.length));
  return n;
}

/** One long paragraph's units packed into pieces of at most `size`, sharing up to `overlap`. */
function packSentences(units: Unit[], size: number, overlap: number): string[] {
  const chunks: string[] = [];
  // The chunk being built is units[from..to) with `length` characters once joined.
  let from = 0;
  let length = 0;
  const sep = (i: number) => units[i]!.sep.length;

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
  for (let i = from + 1; i < to; i++) parts.push(units[i]!.sep, units[i]!.text);
  return parts.join('');
}

/** A paragraph's sentences (and lines), each at most `size` characters. */
function toUnits(paragraph: string, size: number): Unit[] {
  const units: Unit[] = [];

  for (const line of paragraph.split('\n')) {
    let first = true;
    for (const raw of line.split(SENTENCE_BREAK)) {
      const sentence = raw?.replace(/[ \t]+/g, ' ').trim();
      if (!sentence) continue;
      for (const piece of sentence.length <= size ? [sentence] : splitLong(sentence, size)) {
        units.push({ text: piece, sep: units.length === 0 ? '\n\n' : first ? '\n' : ' ' });
        first = false;
      }
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
