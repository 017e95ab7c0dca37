// The block level of the small Markdown subset replies are rendered with: paragraphs, headings,
// fenced code, block quotes, flat lists and rules. A parser, not an HTML renderer: it returns
// plain data, and markdown-content.tsx turns that into React elements (text is never HTML).
// Anything it does not understand stays a paragraph of literal text.

export type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'heading'; level: number; text: string }
  | { type: 'code'; text: string }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'list'; ordered: boolean; start: number; items: string[] }
  | { type: 'rule' };

// Deeper quotes than this are kept as text: no reply needs them, and nesting is recursion.
const MAX_QUOTE_DEPTH = 4;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const QUOTE = /^ {0,3}> ?/;
const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/;
const ORDERED = /^ {0,3}(\d{1,9})[.)][ \t]+(.*)$/;

const isBlank = (line: string) => line.trim() === '';

function listItem(line: string): { ordered: boolean; start: number; text: string } | null {
  const bullet = BULLET.exec(line);
  if (bullet) return { ordered: false, start: 1, text: bullet[1]! };
  const ordered = ORDERED.exec(line);
  if (ordered) return { ordered: true, start: Number(ordered[1]), text: ordered[2]! };
  return null;
}

/** A line that ends a paragraph or list item because another block starts on it. */
function startsBlock(line: string, depth: number): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    (depth < MAX_QUOTE_DEPTH && QUOTE.test(line)) ||
    listItem(line) !== null
  );
}

export function parseBlocks(text: string, depth = 0): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(marker)) body.push(lines[i++]!);
      i++; // the closing fence (or the end of the text)
      blocks.push({ type: 'code', text: body.join('\n') });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]!.length, text: heading[2] ?? '' });
      i++;
      continue;
    }

    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i++;
      continue;
    }

    if (depth < MAX_QUOTE_DEPTH && QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) inner.push(lines[i++]!.replace(QUOTE, ''));
      blocks.push({ type: 'quote', blocks: parseBlocks(inner.join('\n'), depth + 1) });
      continue;
    }

    const first = listItem(line);
    if (first) {
      const items: string[] = [first.text];
      i++;
      while (i < lines.length) {
        const next = lines[i]!;
        const item = listItem(next);
        if (item && item.ordered === first.ordered) {
          items.push(item.text);
          i++;
        } else if (isBlank(next)) {
          // A blank line inside a list: it goes on only if the next line is another item.
          const after = lines[i + 1];
          const again = after === undefined ? null : listItem(after);
          if (!again || again.ordered !== first.ordered) break;
          i++;
        } else if (!startsBlock(next, depth)) {
          items[items.length - 1] += `\n${next.trim()}`;
          i++;
        } else {
          break;
        }
      }
      blocks.push({ type: 'list', ordered: first.ordered, start: first.start, items });
      continue;
    }

    const para: string[] = [line.trim()];
    i++;
    while (i < lines.length && !isBlank(lines[i]!) && !startsBlock(lines[i]!, depth)) para.push(lines[i++]!.trim());
    blocks.push({ type: 'paragraph', text: para.join('\n') });
  }
  return blocks;
}
