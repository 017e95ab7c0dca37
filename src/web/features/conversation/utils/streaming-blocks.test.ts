import { describe, expect, it } from 'vitest';
import { settleStreamingTail, streamingBlocks } from './streaming-blocks';

describe('streamingBlocks', () => {
  it('cuts at blank lines, and the blocks join back into the text', () => {
    const text = '# Title\n\nFirst paragraph\nstill first.\n\n\nSecond.\n\n> quoted';
    const blocks = streamingBlocks(text);
    expect(blocks.map((b) => b.trim())).toEqual(['# Title', 'First paragraph\nstill first.', 'Second.', '> quoted']);
    expect(blocks.join('\n')).toBe(text);
  });

  it('keeps a fenced code block whole across its blank lines, and an unclosed one to the end', () => {
    const text = 'Code:\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter.\n\n~~~\nopen\n\nstill open';
    const blocks = streamingBlocks(text);
    expect(blocks.map((b) => b.trim())).toEqual(['Code:', '```js\nconst a = 1;\n\nconst b = 2;\n```', 'After.', '~~~\nopen\n\nstill open']);
    expect(blocks.join('\n')).toBe(text);
  });

  it('a shorter or different fence does not close a code block', () => {
    const blocks = streamingBlocks('````\n```\n\n~~~~\n\ninside\n````\n\nout');
    expect(blocks.map((b) => b.trim())).toEqual(['````\n```\n\n~~~~\n\ninside\n````', 'out']);
  });

  it('keeps a loose list and an item\'s indented second paragraph with their list', () => {
    const text = 'Steps:\n1. one\n\n2. two\n\n   more about two\n\n- other\n\nThe end.';
    const blocks = streamingBlocks(text);
    expect(blocks.map((b) => b.trim())).toEqual(['Steps:\n1. one\n\n2. two\n\n   more about two\n\n- other', 'The end.']);
  });

  it('does not cut a reply with a link or footnote definition: it may be used in any block', () => {
    for (const text of ['See [the site][s].\n\nMore.\n\n[s]: https://example.org', 'A claim.[^1]\n\nMore.\n\n[^1]: The source.']) {
      expect(streamingBlocks(text)).toEqual([text]);
    }
  });
});

describe('settleStreamingTail', () => {
  it('shows a link whose address is still arriving as its label', () => {
    expect(settleStreamingTail('See [the archive](https://exa')).toBe('See the archive');
    expect(settleStreamingTail('See [the archive](')).toBe('See the archive');
    // Complete, or not a link yet: as it is.
    expect(settleStreamingTail('See [the archive](https://example.org) and')).toBe('See [the archive](https://example.org) and');
    expect(settleStreamingTail('See [the arch')).toBe('See [the arch');
    expect(settleStreamingTail('A (parenthesis')).toBe('A (parenthesis');
  });

  it('leaves code alone', () => {
    expect(settleStreamingTail('```md\n[x](https://exa')).toBe('```md\n[x](https://exa');
  });
});
