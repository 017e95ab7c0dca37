import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { chunkText } from './chunker';
import { normalizeExtractedText } from './text-normalize';
import { checkUnpackedSize, listZipEntries } from './zip-inspect';
import { estimateNesting, htmlToText } from './html-to-text';

describe('chunkText', () => {
  const para = (n: number) => Array.from({ length: 6 }, (_, i) => `Paragraph ${n} sentence ${i} is here.`).join(' ');
  const text = Array.from({ length: 20 }, (_, i) => para(i)).join('\n\n');

  it('keeps chunks within the size, cuts between sentences and overlaps', () => {
    const chunks = chunkText(text, { size: 300, overlap: 80 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(300);
      expect(c).toMatch(/^Paragraph \d+ sentence \d+ is here\./); // starts at a sentence
      expect(c).toMatch(/is here\.$/); // ends at one
    }
    // Each chunk repeats the end of the one before (overlap), and the text is covered in order.
    for (let i = 1; i < chunks.length; i++) {
      const firstSentence = chunks[i]!.split(/(?<=\.)\s/)[0]!;
      expect(chunks[i - 1]).toContain(firstSentence);
    }
    expect(chunks.join(' ')).toContain('Paragraph 19 sentence 5 is here.');
  });

  it('keeps paragraph breaks inside a chunk', () => {
    const chunks = chunkText('First paragraph.\n\nSecond paragraph.', { size: 1000, overlap: 200 });
    expect(chunks).toEqual(['First paragraph.\n\nSecond paragraph.']);
  });

  it('splits text without spaces or sentences anywhere, and long sentences at spaces', () => {
    expect(chunkText('x'.repeat(2500), { size: 1000, overlap: 200 }).map((c) => c.length)).toEqual([1000, 1000, 500]);
    const words = chunkText('word '.repeat(1000).trim(), { size: 1000, overlap: 0 });
    expect(words.every((c) => c.length <= 1000 && !c.startsWith(' ') && !c.endsWith(' ') && !/wor$|^ord/.test(c))).toBe(true);
  });

  it('is empty for empty text and never splits a surrogate pair', () => {
    expect(chunkText('', { size: 1000, overlap: 200 })).toEqual([]);
    const emoji = chunkText('😀'.repeat(600), { size: 101, overlap: 0 });
    expect(emoji.join('')).toBe('😀'.repeat(600));
    expect(emoji.every((c) => !/[\uD800-\uDBFF]$/.test(c))).toBe(true);
  });
});

describe('normalizeExtractedText', () => {
  it('removes invisible and control characters, keeps real text', () => {
    expect(normalizeExtractedText('a\u200Bb\u200Dc\u2060d\u00ADe\u202Ef\u2067g\uFE0Fh\u{E0020}\u{E0069}i\u0000\u001Bj\u0085k')).toBe('abcdefghij\nk');
    expect(normalizeExtractedText('  Hello\u00A0\u00A0 world \t!\r\n\r\n\r\n\r\nBye  ')).toBe('Hello world !\n\nBye');
    expect(normalizeExtractedText('café naïve 日本語 😀')).toBe('café naïve 日本語 😀');
    expect(normalizeExtractedText('cafe\u0301')).toBe('café');
  });
});

describe('zip inspection', () => {
  it('lists entries and measures what they really unpack to', () => {
    const zip = zipSync({ 'a.txt': new Uint8Array(1000).fill(65), 'b/c.xml': new TextEncoder().encode('<x/>') });
    expect(listZipEntries(zip)?.map((e) => e.name)).toEqual(['a.txt', 'b/c.xml']);
    expect(checkUnpackedSize(zip, 2000)).toEqual({ ok: true, total: 1004 });
    expect(checkUnpackedSize(zip, 500)).toEqual({ ok: false, reason: 'too_big' });
    expect(listZipEntries(new TextEncoder().encode('not a zip'))).toBeUndefined();
  });
});

describe('html', () => {
  it('estimates nesting in one pass and flattens absurd nesting without a DOM', () => {
    expect(estimateNesting('<html><body><div><p>a<p>b<br><img src=x></div></body></html>')).toBe(3);
    const deep = `<title>T &amp; U</title>${'<div>'.repeat(5000)}x &lt; y${'</div>'.repeat(5000)}`;
    expect(htmlToText(deep)).toEqual({ title: 'T & U', text: 'x < y' });
  });
});
