// A reply streaming in: the blocks already complete are not parsed again for each new word, and
// what shows while it streams reads as the complete reply will.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';

// Every text react-markdown is asked to parse, in order (the real renderer still renders it).
const parsed = vi.hoisted(() => [] as string[]);
vi.mock('react-markdown', async (importOriginal) => {
  const real = await importOriginal<typeof import('react-markdown')>();
  const Real = real.default;
  return {
    ...real,
    default: (props: Parameters<typeof Real>[0]) => {
      parsed.push(String(props.children));
      return Real(props);
    },
  };
});

const { MarkdownContent } = await import('./markdown-content');
const { markDoNotRead } = await import('../utils/do-not-read-markdown');

afterEach(() => {
  parsed.length = 0;
});

const reply = [
  '## Three things',
  'Ada wrote the **first** program, [DO_NOT_READ](from notes.txt)[/DO_NOT_READ] in 1843.',
  '```js\nconst notes = 1;\n\nconst g = 2;\n```',
  '1. Bernoulli numbers\n\n2. The engine\n\n   which was never built',
  '> A quote, with a [link](https://example.org).',
  '| Year | Event |\n|---|---|\n| 1843 | Notes |',
].join('\n\n');

/** The reply as a stream delivers it: a few characters more each time. */
function prefixes(text: string, step: number): string[] {
  const out: string[] = [];
  for (let end = step; end < text.length; end += step) out.push(text.slice(0, end));
  out.push(text);
  return out;
}

describe('a streaming reply', () => {
  it('parses only its last block as words arrive; the blocks before it are parsed once', () => {
    const view = render(<MarkdownContent text="" streaming />);
    for (const text of prefixes(reply, 7)) view.rerender(<MarkdownContent text={text} streaming />);

    // Each complete block was parsed a handful of times while it was the last one, then never:
    // the whole reply (or a long start of it) is never parsed during the stream.
    const longest = Math.max(...parsed.map((p) => p.length));
    expect(longest).toBeLessThan(reply.length / 2);
    const firstBlock = '## Three things';
    const afterFirst = parsed.findIndex((p) => p.startsWith('Ada wrote'));
    expect(afterFirst).toBeGreaterThan(0);
    expect(parsed.slice(afterFirst).some((p) => p.startsWith(firstBlock))).toBe(false);
    // Far fewer characters parsed than re-parsing the whole text for every delta.
    const parsedCharacters = parsed.reduce((n, p) => n + p.length, 0);
    const wholeEachTime = prefixes(reply, 7).reduce((n, p) => n + p.length, 0);
    expect(parsedCharacters).toBeLessThan(wholeEachTime / 3);
  });

  it('reads while streaming as the complete reply does, and is parsed whole once complete', () => {
    const streamed = render(<MarkdownContent text={reply} streaming />).container;
    const complete = render(<MarkdownContent text={reply} />).container;
    const shape = (box: HTMLElement) => [...box.querySelectorAll('*')].map((e) => e.tagName).join(' ');
    // Block by block (the complete parse also leaves newlines between blocks, which a grid ignores).
    const blocks = (box: HTMLElement) => [...box.firstElementChild!.children].map((e) => e.textContent);
    expect(blocks(streamed)).toEqual(blocks(complete));
    expect(blocks(streamed)).toHaveLength(6);
    expect(shape(streamed)).toBe(shape(complete));
    expect(streamed.querySelector('strong[data-do-not-read]')).toHaveTextContent('(from notes.txt)');
    expect(streamed.querySelectorAll('pre')).toHaveLength(1);
    expect(streamed.querySelector('ol li:last-child')).toHaveTextContent('which was never built');
    expect(streamed.querySelector('blockquote a')).toHaveAttribute('href', 'https://example.org/');

    parsed.length = 0;
    const view = render(<MarkdownContent text={reply} streaming />);
    view.rerender(<MarkdownContent text={reply} />);
    expect(parsed.at(-1)).toBe(markDoNotRead(reply));
  });

  it('shows a link whose address is still arriving as its label, and the link once it is complete', () => {
    const view = render(<MarkdownContent text={'Read\n\nSee [the archive](https://exa'} streaming />);
    expect(view.container).toHaveTextContent('See the archive');
    expect(view.container).not.toHaveTextContent('](');
    view.rerender(<MarkdownContent text={'Read\n\nSee [the archive](https://example.org) now'} streaming />);
    expect(view.container.querySelector('a')).toHaveAttribute('href', 'https://example.org/');
  });
});
