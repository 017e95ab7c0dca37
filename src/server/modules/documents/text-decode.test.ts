import { describe, expect, it } from 'vitest';
import { charsetFromContentType, charsetFromHtmlHead, decodeText, detectEncoding } from './text-decode';

describe('text encodings', () => {
  it('reads the charset of a Content-Type, by its canonical name, and ignores labels nobody knows', () => {
    expect(charsetFromContentType('text/html; charset=ISO-8859-1')).toBe('windows-1252');
    expect(charsetFromContentType('text/plain;charset="Shift_JIS"')).toBe('shift_jis');
    expect(charsetFromContentType('text/html; charset=x-no-such-thing')).toBeUndefined();
    expect(charsetFromContentType('text/html')).toBeUndefined();
  });

  it('finds <meta charset> and the http-equiv form near the top of a page, never UTF-16', () => {
    const head = (s: string) => Buffer.from(s, 'latin1');
    expect(charsetFromHtmlHead(head('<html><head><meta charset="windows-1252"><title>x</title>'))).toBe('windows-1252');
    expect(charsetFromHtmlHead(head('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'))).toBe('shift_jis');
    expect(charsetFromHtmlHead(head('<meta charset="utf-16">'))).toBe('utf-8');
    expect(charsetFromHtmlHead(head(`${' '.repeat(1100)}<meta charset="windows-1252">`))).toBeUndefined();
  });

  it('decodes Windows-1252 punctuation (Node decodes it as Latin-1 in one call)', () => {
    expect(decodeText(Buffer.from([0x80, 0x20, 0x93, 0x41, 0x94, 0x97, 0xe9]), 'windows-1252')).toBe('€ “A”—é');
  });

  it('a BOM wins over a declared charset; a declared UTF-8 that is wrong falls back', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('café', 'utf16le')]);
    expect(detectEncoding(utf16, { declared: 'windows-1252' })).toBe('utf-16le');
    expect(decodeText(utf16, 'utf-16le')).toBe('café');
    expect(detectEncoding(Buffer.from('caf\xe9 cr\xe8me', 'latin1'), { declared: 'utf-8' })).toBe('windows-1252');
  });
});
