// A streaming reply's Markdown: `npm run bench -- reply-render`. A model sends a reply a few
// characters at a time and the chat draws it again for each. Prints, for replies of ~4,400 and
// ~18,000 characters delivered 6 characters a delta, the time to parse and render per delta
// (react-markdown to HTML, in Node) when the whole reply is parsed each time (before) and when only
// its last block is (the finished blocks are memoized: utils/streaming-blocks.ts). The browser adds
// its DOM work on top of either.
import { performance } from 'node:perf_hooks';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MarkdownContent } from '../src/web/features/conversation/components/markdown-content';
import { streamingBlocks } from '../src/web/features/conversation/utils/streaming-blocks';

const DELTA = 6;

/** A long, varied reply: headings, paragraphs with emphasis and links, lists, code, a table. */
function sampleReply(targetLength: number): string {
  const sections: string[] = [];
  for (let i = 1; sections.join('\n\n').length < targetLength; i++) {
    sections.push(
      `## Part ${i}: what the notes say`,
      `In her notes of 184${i % 10}, Ada **explains** how the engine could act on *symbols* as well as numbers; see [the archive](https://example.org/notes/${i}). She writes that the machine "might compose elaborate pieces of music" and returns to the point in letter ${i}.`,
      `1. The first step sets the variables\n2. The second repeats the operation ${i} times\n3. The third stores the \`result\``,
      '```js\nfunction bernoulli(n) {\n  let b = [1];\n\n  for (let m = 1; m <= n; m++) b.push(0);\n  return b;\n}\n```',
      `| Year | Event |\n|---|---|\n| 184${i % 10} | Letter ${i} |\n| 1852 | Died |`,
      `> "That brain of mine is something more than merely mortal," she wrote in letter ${i}.`,
    );
  }
  return sections.join('\n\n').slice(0, targetLength);
}

const render = (text: string) => renderToString(createElement(MarkdownContent, { text }));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Up to 500 of the reply's deltas, evenly spread (the whole reply parsed 3,000 times took minutes). */
const SAMPLED = 500;

function measure(reply: string, lastBlockOnly: boolean) {
  const deltas = Math.ceil(reply.length / DELTA);
  const stride = Math.max(1, Math.ceil(deltas / SAMPLED));
  const times: number[] = [];
  for (let end = DELTA; end < reply.length + DELTA; end += DELTA * stride) {
    const shown = reply.slice(0, end);
    const started = performance.now();
    render(lastBlockOnly ? streamingBlocks(shown).at(-1)! : shown);
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  // All deltas: the sampled mean times their number.
  const total = (times.reduce((a, b) => a + b, 0) / times.length) * deltas;
  return { deltas, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)!, total };
}

// Warm up the parser and React before timing.
for (let i = 0; i < 20; i++) render(sampleReply(2_000));

for (const length of [4_400, 18_000]) {
  const reply = sampleReply(length);
  for (const [label, lastBlockOnly] of [
    ['whole reply each delta (before)', false],
    ['last block only (now)', true],
  ] as const) {
    const r = measure(reply, lastBlockOnly);
    console.log(
      `${reply.length} characters, ${r.deltas} deltas, ${label}: per delta p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms, max ${r.max.toFixed(1)} ms; all deltas ${(r.total / 1000).toFixed(2)} s`,
    );
  }
}
