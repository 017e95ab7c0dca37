// The inline level of the reply Markdown subset: **strong**, *em* / _em_, `code`, [links](url),
// ![images](url) (kept as their alt text, never loaded), hard line breaks, and the DO_NOT_READ
// spans (see do-not-read.ts), which arrive here as two private-use sentinel characters so that
// their "[DO_NOT_READ](from x.txt (chunk 2))" shape can never be mistaken for a link.
// Returns plain data; whether a link's URL may become an href is decided when rendering.

export const DNR_OPEN = '\uE000';
export const DNR_CLOSE = '\uE001';

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'break' }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'doNotRead'; children: Inline[] }
  | { type: 'link'; url: string; children: Inline[] }
  | { type: 'image'; alt: string };

// Nesting deeper than this is kept as literal text (bounded recursion on hostile input).
const MAX_DEPTH = 6;
// A link's label and URL are looked for this far at most, so unmatched "[" cost little.
const MAX_LABEL = 1000;
const MAX_URL = 2048;
const ESCAPABLE = new Set('\\`*_{}[]()#+-.!>~|'.split(''));

export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ type: 'text', text: plain });
    plain = '';
  };
  const push = (node: Inline) => {
    flush();
    out.push(node);
  };
  // Where a search for a closing delimiter already failed: searching again from later never succeeds.
  const noCloserFrom = new Map<string, number>();
  const findCloser = (delim: string, from: number, find: () => number): number => {
    if ((noCloserFrom.get(delim) ?? Infinity) <= from) return -1;
    const at = find();
    if (at === -1) noCloserFrom.set(delim, from);
    return at;
  };
  const nested = depth < MAX_DEPTH;

  let i = 0;
  while (i < text.length) {
    const c = text[i]!;

    if (c === '\\' && i + 1 < text.length && ESCAPABLE.has(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }

    if (c === '\n') {
      push({ type: 'break' });
      i++;
      continue;
    }

    if (c === DNR_OPEN) {
      const close = text.indexOf(DNR_CLOSE, i + 1);
      const end = close === -1 ? text.length : close;
      const inner = text.slice(i + 1, end);
      push({ type: 'doNotRead', children: nested ? parseInline(inner, depth + 1) : [{ type: 'text', text: inner }] });
      i = close === -1 ? end : end + 1;
      continue;
    }
    if (c === DNR_CLOSE) {
      i++; // a stray close marker shows nothing
      continue;
    }

    if (c === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      const fence = '`'.repeat(run);
      const close = findCloser(fence, i + run, () => text.indexOf(fence, i + run));
      if (close !== -1) {
        push({ type: 'code', text: text.slice(i + run, close).replace(/\n/g, ' ') });
        i = close + run;
        continue;
      }
      plain += fence;
      i += run;
      continue;
    }

    if (nested && (c === '[' || (c === '!' && text[i + 1] === '['))) {
      const image = c === '!';
      const link = parseLink(text, image ? i + 1 : i);
      if (link) {
        const label = text.slice(link.labelStart, link.labelEnd);
        push(image ? { type: 'image', alt: plainText(label) } : { type: 'link', url: link.url, children: parseInline(label, depth + 1) });
        i = link.end;
        continue;
      }
    }

    if (nested && (c === '*' || c === '_')) {
      const double = text[i + 1] === c;
      const delim = double ? c + c : c;
      const start = i + delim.length;
      if (canOpen(text, i, delim)) {
        const close = findCloser(delim, start, () => findClosing(text, start, delim));
        if (close !== -1) {
          const children = parseInline(text.slice(start, close), depth + 1);
          push(double ? { type: 'strong', children } : { type: 'em', children });
          i = close + delim.length;
          continue;
        }
      }
      plain += delim;
      i += delim.length;
      continue;
    }

    plain += c;
    i++;
  }
  flush();
  return out;
}

const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch);
const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

/** An opener is followed by a non-space; "_" also must not sit inside a word (snake_case). */
function canOpen(text: string, at: number, delim: string): boolean {
  if (isSpace(text[at + delim.length])) return false;
  return !(delim[0] === '_' && isWordChar(text[at - 1]));
}

/** The matching closer: preceded by a non-space, not part of a longer run, "_" not inside a word. */
function findClosing(text: string, from: number, delim: string): number {
  const ch = delim[0]!;
  for (let j = text.indexOf(delim, from); j !== -1; j = text.indexOf(delim, j + 1)) {
    if (j === from) continue;
    const longerRun = text[j + delim.length] === ch || text[j - 1] === ch;
    if (longerRun) continue;
    if (isSpace(text[j - 1])) continue;
    if (ch === '_' && isWordChar(text[j + delim.length])) continue;
    return j;
  }
  return -1;
}

/** `[label](url "title")` starting at `open` (the "["), or null. */
function parseLink(text: string, open: number): { labelStart: number; labelEnd: number; url: string; end: number } | null {
  let depth = 0;
  let j = open;
  const labelLimit = Math.min(text.length, open + MAX_LABEL);
  for (; j < labelLimit; j++) {
    const ch = text[j];
    if (ch === '\\') j++;
    else if (ch === '[') depth++;
    else if (ch === ']' && --depth === 0) break;
    else if (ch === '\n' && text[j + 1] === '\n') return null;
  }
  if (j >= labelLimit || text[j + 1] !== '(') return null;
  const labelEnd = j;
  let parens = 0;
  let k = j + 2;
  const urlLimit = Math.min(text.length, k + MAX_URL);
  for (; k < urlLimit; k++) {
    const ch = text[k];
    if (ch === '\n') return null;
    if (ch === '(') parens++;
    else if (ch === ')' && parens-- === 0) break;
  }
  if (k >= urlLimit) return null;
  const dest = text.slice(j + 2, k).trim();
  const url = (dest.startsWith('<') ? dest.slice(1, dest.indexOf('>') === -1 ? undefined : dest.indexOf('>')) : dest.split(/\s+/)[0]) ?? '';
  return { labelStart: open + 1, labelEnd, url, end: k + 1 };
}

/** The words of some inline Markdown, without its syntax (an image's alt text). */
export function plainText(text: string): string {
  const walk = (nodes: Inline[]): string =>
    nodes
      .map((n) => {
        switch (n.type) {
          case 'text':
          case 'code':
            return n.text;
          case 'break':
            return ' ';
          case 'image':
            return n.alt;
          default:
            return walk(n.children);
        }
      })
      .join('');
  return walk(parseInline(text, 1)).trim();
}
