import { describe, expect, it } from 'vitest';
import { formatBytes, precheckFile } from './upload-validation';

const MB = 1024 * 1024;

describe('precheckFile', () => {
  it('lets every offered type through, whatever the case of its extension', () => {
    for (const name of ['a.txt', 'b.MD', 'c.markdown', 'd.pdf', 'e.docx', 'f.html', 'g.HTM']) {
      expect(precheckFile({ name, size: 10 })).toBeNull();
    }
  });

  it('refuses other types with the supported-types message naming the file', () => {
    expect(precheckFile({ name: 'song.mp3', size: 10 })).toBe(
      'Only .txt files are supported. Please convert song.mp3 to plain text format. Markdown (.md), PDF, Word (.docx) and web page (.html) files are converted to text for you.',
    );
    // A dot-file has no extension: ".txt" alone is a name, not a type.
    expect(precheckFile({ name: '.txt', size: 10 })).toMatch(/^Only \.txt/);
    expect(precheckFile({ name: 'README', size: 10 })).toMatch(/Please convert README/);
  });

  it('allows exactly 10MB and refuses one byte more with the spec message', () => {
    expect(precheckFile({ name: 'big.txt', size: 10 * MB })).toBeNull();
    expect(precheckFile({ name: 'big.txt', size: 10 * MB + 1 })).toBe('File big.txt is too large. Maximum size is 10MB.');
  });
});

describe('formatBytes', () => {
  it('uses B, KB and MB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(200 * 1024)).toBe('200 KB');
    expect(formatBytes(3 * MB)).toBe('3.0 MB');
  });
});
