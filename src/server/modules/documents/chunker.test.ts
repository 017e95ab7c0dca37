import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { chunkText } from './chunker';
import { normalizeExtractedText } from './text-normalize';
import { checkUnpackedSize, listZipEntries } from './zip-inspect';
import { estimateNesting, htmlToText } from './html-to-text';

describe('chunkText', () => {
  const para = (n: number) => Array.from({ length: 6 }, (_, i) => `Paragraph ${n} sentence ${i} is here.`).join(' ');
  const text = Array.from({ length: 20 }, (_, i) => para(i)).join('\n\n');

  it('merges whole paragraphs up to the size and never repeats text between them', () => {
    // Each paragraph is about 190 characters: two fit in 400 (with the blank line), three do not.
    const chunks = chunkText(text, { size: 400, overlap: 80 });
    expect(chunks).toHaveLength(10);
    chunks.forEach((c, i) => {
      expect(c.length).toBeLessThanOrEqual(400);
      expect(c).toBe(`${para(2 * i)}\n\n${para(2 * i + 1)}`);
    });
    // No overlap between paragraphs: every sentence is in exactly one chunk.
    expect(chunks.join('\n\n')).toBe(text);
  });

  it('cuts only a paragraph longer than a chunk, between sentences, with the overlap inside it', () => {
    const long = Array.from({ length: 20 }, (_, i) => `Long sentence ${i} is here.`).join(' ');
    const chunks = chunkText(`Short opening paragraph.\n\n${long}\n\nShort closing paragraph.`, { size: 200, overlap: 60 });
    expect(chunks[0]).toBe('Short opening paragraph.');
    expect(chunks[chunks.length - 1]).toBe('Short closing paragraph.');
    const pieces = chunks.slice(1, -1);
    expect(pieces.length).toBeGreaterThan(2);
    for (const c of pieces) {
      expect(c.length).toBeLessThanOrEqual(200);
      expect(c).toMatch(/^Long sentence \d+ is here\..*is here\.$/);
    }
    for (let i = 1; i < pieces.length; i++) expect(pieces[i - 1]).toContain(pieces[i]!.split(/(?<=\.)\s/)[0]!);
  });

  it('keeps line breaks inside a paragraph (headings, date lines, sign-offs stay lines)', () => {
    expect(chunkText('# Title\n\n3 May 1990\nDear Anna,  the boat\tis done.\n\nWith love,\nMum', { size: 1000, overlap: 0 })).toEqual([
      '# Title\n\n3 May 1990\nDear Anna, the boat is done.\n\nWith love,\nMum',
    ]);
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
    expect(normalizeExtractedText('a\u200Bb\u200D\u200Dc\u2060d\u00ADe\u202Ef\u2067g\uFE0Fh\u{E0020}\u{E0069}i\u0000\u001Bj\u0085k')).toBe('abcdefghij\nk');
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
