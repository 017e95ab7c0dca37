// The DO_NOT_READ spans of a reply (spec section 9: shown bold, never spoken) carried through the
// Markdown parser. Before parsing, each span becomes two private-use sentinel characters, closed at
// the end of every line so no span crosses a block; after parsing, a rehype step wraps the text
// between them in <strong data-do-not-read>. The sentinels keep the span's own text out of the
// Markdown syntax: "[DO_NOT_READ](from x.txt (chunk 2))[/DO_NOT_READ]" is never taken for a link.
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';
import { splitDoNotRead } from '../../../../shared/do-not-read';

export const DNR_OPEN = '\uE000';
export const DNR_CLOSE = '\uE001';
const SENTINELS = new RegExp(`[${DNR_OPEN}${DNR_CLOSE}]`, 'g');

/** The reply with its DO_NOT_READ spans as sentinels; sentinels already in the text are dropped, so a reply cannot forge one. */
export function markDoNotRead(text: string): string {
  return splitDoNotRead(text.replace(SENTINELS, ''))
    .map((s) =>
      s.doNotRead
        ? s.text
            .split('\n')
            .map((line) => (line ? `${DNR_OPEN}${line}${DNR_CLOSE}` : line))
            .join('\n')
        : s.text,
    )
    .join('');
}

/** rehype plugin: text between the sentinels becomes bold; inside code blocks the sentinels are only removed. */
export function rehypeDoNotRead() {
  return (tree: Root) => {
    const state = { open: false };
    walk(tree.children, state, false);
  };
}

type Child = RootContent | ElementContent;

function walk(children: Child[], state: { open: boolean }, inCode: boolean) {
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.type === 'element') {
      walk(node.children, state, inCode || node.tagName === 'pre' || node.tagName === 'code');
    } else if (node.type === 'text' && (state.open || SENTINELS.test(node.value))) {
      SENTINELS.lastIndex = 0;
      const pieces = splitText(node, state, inCode);
      children.splice(i, 1, ...pieces);
      i += pieces.length - 1;
    }
  }
}

function splitText(node: Text, state: { open: boolean }, inCode: boolean): ElementContent[] {
  const out: ElementContent[] = [];
  let run = '';
  const flush = () => {
    if (!run) return;
    const text: Text = { type: 'text', value: run };
    out.push(state.open && !inCode ? boldSpan(text) : text);
    run = '';
  };
  for (const ch of node.value) {
    if (ch === DNR_OPEN || ch === DNR_CLOSE) {
      flush();
      state.open = ch === DNR_OPEN;
    } else {
      run += ch;
    }
  }
  flush();
  return out;
}

function boldSpan(text: Text): Element {
  return { type: 'element', tagName: 'strong', properties: { dataDoNotRead: '', className: ['font-semibold'] }, children: [text] };
}
