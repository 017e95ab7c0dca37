// Readable text from HTML: Readability picks the article (dropping navigation, ads, footers), then
// the article's DOM is flattened with block elements as paragraph breaks. linkedom stands in for a
// browser DOM. Runs inside the extraction worker (bounded time and memory).
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'CANVAS', 'HEAD']);
const BLOCK = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'ASIDE', 'NAV', 'BLOCKQUOTE', 'PRE', 'UL', 'OL', 'LI',
  'TABLE', 'TR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'FIGURE', 'FIGCAPTION', 'DL', 'DT', 'DD', 'HR', 'ADDRESS',
]);

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/** Iterative walk (a deeply nested hostile page cannot overflow the stack). */
export function domToText(root: DomNode): string {
  const out: string[] = [];
  const stack: (DomNode | string)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if (item.nodeType === 3) {
      // Source whitespace collapses as a browser would; block breaks are pushed separately.
      out.push((item.textContent ?? '').replace(/\s+/g, ' '));
      continue;
    }
    if (item.nodeType !== 1 && item.nodeType !== 9 && item.nodeType !== 11) continue;
    const name = item.nodeName.toUpperCase();
    if (SKIP.has(name)) continue;
    if (name === 'BR') {
      out.push('\n');
      continue;
    }
    const block = BLOCK.has(name);
    if (block) stack.push('\n\n');
    const children = item.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    if (block) stack.push('\n\n');
  }
  // Linear passes only (no pattern that rescans a long run of spaces).
  return out.join('').replace(/ +/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n');
}

export interface HtmlText {
  title: string | null;
  text: string;
}

/** Element count and nesting depth, measured iteratively. */
function domShape(root: DomNode): { elements: number; depth: number } {
  let elements = 0;
  let depth = 0;
  const stack: [DomNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (node.nodeType !== 1 && node.nodeType !== 9) continue;
    elements++;
    if (d > depth) depth = d;
    const children = node.childNodes;
    for (let i = 0; i < children.length; i++) stack.push([children[i]!, d + 1]);
  }
  return { elements, depth };
}

// Readability's scoring is quadratic on deep trees (1,000 nested divs take seconds): pages past
// these bounds get the plain body text instead of the article heuristics.
const READABILITY_MAX_ELEMENTS = 20_000;
const READABILITY_MAX_DEPTH = 120;

const VOID_OR_LOOSE = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  // Often left open in real pages: not counted, so sloppy markup is not mistaken for nesting.
  'p', 'li', 'td', 'th', 'tr', 'option', 'dt', 'dd',
]);
const MAX_PARSE_DEPTH = 1000;

/**
 * The deepest tag nesting, estimated with one linear scan (no DOM). linkedom's parser is quadratic
 * on absurd nesting (100,000 nested divs take half a minute), so such pages skip it.
 */
export function estimateNesting(html: string): number {
  let depth = 0;
  let max = 0;
  const tag = /<(\/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*>/g;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const name = m[2]!.toLowerCase();
    if (VOID_OR_LOOSE.has(name) || m[0].endsWith('/>')) continue;
    if (m[1]) depth = Math.max(0, depth - 1);
    else if (++depth > max) max = depth;
  }
  return max;
}

/** Text of hostile markup without a DOM: scripts and styles dropped, tags removed, entities decoded. */
function strippedText(html: string): string {
  const body = dropBlocks(html, ['head', 'title', 'script', 'style', 'noscript', 'template'])
    .replace(/<\/?(p|div|br|li|h[1-6]|tr|section|article|blockquote|pre)\b[^<>]*>/gi, '\n\n')
    .replace(/<[^<>]*>/g, ' ');
  return decodeEntities(body).replace(/[ \t]+/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** Entities decoded by the parser on a flat string (no nesting for it to be slow on). */
function decodeEntities(text: string): string {
  const { document } = parseHTML('<!doctype html><html><body><div></div></body></html>');
  const holder = document.querySelector('div')!;
  holder.innerHTML = text.replace(/</g, '&lt;');
  return holder.textContent ?? '';
}

/** The next `<name` or `</name` that is the whole tag name (so "<head" does not match "<header"). */
function findTag(lower: string, open: string, from: number): number {
  for (let i = lower.indexOf(open, from); i >= 0; i = lower.indexOf(open, i + 1)) {
    const next = lower.charCodeAt(i + open.length);
    // end of text, whitespace, ">" or "/"
    if (Number.isNaN(next) || next === 62 || next === 47 || next <= 32) return i;
  }
  return -1;
}

/** Removes <name>...</name> blocks with indexOf scans (linear even when closings are missing). */
function dropBlocks(html: string, names: string[]): string {
  const lower = html.toLowerCase();
  const out: string[] = [];
  let at = 0;
  // Next opening of each name; -1 once a name has no more (each is searched forward only).
  const next = names.map(() => -2);
  for (;;) {
    let start = -1;
    let name = '';
    names.forEach((n, k) => {
      if (next[k] !== -1 && next[k]! < at) next[k] = findTag(lower, `<${n}`, at);
      const i = next[k]!;
      if (i >= 0 && (start < 0 || i < start)) {
        start = i;
        name = n;
      }
    });
    if (start < 0) break;
    out.push(html.slice(at, start), ' ');
    const end = findTag(lower, `</${name}`, start);
    if (end < 0) return out.join('');
    const close = lower.indexOf('>', end);
    at = close < 0 ? html.length : close + 1;
  }
  out.push(html.slice(at));
  return out.join('');
}

export function htmlToText(html: string): HtmlText {
  if (estimateNesting(html) > MAX_PARSE_DEPTH) {
    const raw = /<title[^<>]*>([^<]{0,500})<\/title>/i.exec(html)?.[1];
    const title = raw ? decodeEntities(raw).trim() || null : null;
    return { title, text: strippedText(html) };
  }
  const { document } = parseHTML(html);
  const pageTitle = (document.title ?? '').trim() || null;
  const shape = domShape(document as unknown as DomNode);
  let article: { title?: string | null; content?: string | null } | null = null;
  if (shape.elements <= READABILITY_MAX_ELEMENTS && shape.depth <= READABILITY_MAX_DEPTH) {
    try {
      // Readability mutates the document: give it its own copy.
      article = new Readability(parseHTML(html).document as unknown as Document).parse();
    } catch {
      article = null;
    }
  }
  if (article?.content) {
    const text = domToText(parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document as unknown as DomNode);
    if (text.trim().length > 0) return { title: article.title?.trim() || pageTitle, text };
  }
  const body = (document.body ?? document.documentElement) as unknown as DomNode | null;
  return { title: pageTitle, text: body ? domToText(body) : '' };
}
