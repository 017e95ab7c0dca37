// A streaming reply's Markdown cut into the blocks that can no longer change. A reply grows by a
// few words at a time; parsing all of it again for each (react-markdown has no incremental parse)
// made a 4,400-character reply cost ~100 ms a delta, and an 18,000-character one seconds of
// blocked page. Text after a blank line cannot change how the blocks before it read, except where
// Markdown looks across blocks; those cases stay together here:
// - link reference and footnote definitions ("[x]: url", "[^1]: note") are used anywhere in the
//   text: a reply that has one is not cut at all;
// - a fenced code block runs over blank lines until its closing fence;
// - a line that starts indented continues the block before it (a list item's second paragraph);
// - list items separated by blank lines are one (loose) list.
// Once the reply is complete it is parsed whole (markdown-content.tsx), so any difference lasts
// only while it streams.

const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])(\s|$)/;

/** The blocks of `source`, in order; joined with "\n" they are `source` again. */
export function streamingBlocks(source: string): string[] {
  if (DEFINITION.test(source)) return [source];
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  let afterBlank = false;
  let inList = false;

  for (const line of source.split('\n')) {
    if (fence !== null) {
      current.push(line);
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (line.trim() === '') {
      current.push(line);
      afterBlank = current.some((l) => l.trim() !== '');
      continue;
    }
    const listItem = LIST_ITEM.test(line);
    const continues = /^\s/.test(line) || (inList && listItem);
    if (afterBlank && !continues) {
      blocks.push(current.join('\n'));
      current = [];
      inList = false;
    }
    afterBlank = false;
    if (listItem) inList = true;
    current.push(line);
    const open = FENCE_OPEN.exec(line);
    if (open) fence = open[1]!;
  }
  blocks.push(current.join('\n'));
  return blocks;
}

/** A closing fence: the same character, at least as long, nothing after it but spaces. */
function closesFence(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return match !== null && match[1]![0] === fence[0] && match[1]!.length >= fence.length;
}

// A link whose address is still arriving ("[the archive](https://exa"): its label is shown, not
// the Markdown, until the ")" comes. Not in a block with a code fence, where it is code.
const PARTIAL_LINK = /\[([^\[\]\n]*)\]\([^()\s]*$/;

/** The last block of a streaming reply as it should show for now. */
export function settleStreamingTail(block: string): string {
  if (/^ {0,3}(`{3,}|~{3,})/m.test(block)) return block;
  return block.replace(PARTIAL_LINK, (_link, label: string) => label);
}
