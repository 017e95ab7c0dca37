import { describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { DocumentSniffer, sniffDocument, type SniffResult } from './file-sniff';
import { makeDocx, makePdf } from '../../../../tests/fixtures/document-files';

/** The verdict when the bytes arrive in chunks of `size` (the last one shorter). */
function streamed(name: string, bytes: Uint8Array, size: number): SniffResult {
  const sniffer = new DocumentSniffer(name);
  for (let at = 0; at < bytes.length; at += size) sniffer.push(bytes.subarray(at, at + size));
  return sniffer.finish();
}

const text = Buffer.from('Grace Hopper wrote the first compiler. Ça va — naïve café.\n'.repeat(50_000));
// "é" is two bytes: cutting the file between them leaves an incomplete sequence at its end.
const cutInsideCharacter = text.subarray(0, text.indexOf('é') + 1);
// A 3 MB picture stored before the document's text: the zip's directory is far from its start.
const docxWithPicture = makeDocx(['A paragraph.'], { 'word/media/image1.png': crypto.randomBytes(3_000_000) });

// Western text in the legacy Windows encoding: accents, curly quotes, the euro sign, a rule of
// em dashes, an end-of-file mark (0x1A) as old editors leave it.
const windows1252 = Buffer.concat([
  Buffer.from('\x93Élodie\x94 a bu un café à Noël, 5 \x80. Grüße aus Köln. Ñandú, çà et là.\n'.repeat(20_000), 'latin1'),
  Buffer.from('\x97'.repeat(40) + '\nFin.\n\x1a', 'latin1'),
]);
const sentence = 'Grace Hopper wrote the first compiler. Ça va — naïve café, 李白, Привет 🌸.\n'.repeat(20_000);
const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sentence, 'utf16le')]);
const utf16be = Buffer.from(utf16le.subarray(2)).swap16();
const utf16beWithBom = Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]);
const utf16leHtml = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<!doctype html><p>${sentence}</p>`, 'utf16le')]);
// "你好世界，这是一个测试。" in GBK and "Привет, как дела? Это тест." in Windows-1251: read as
// Windows-1252 they would be letters, but mojibake ("ÄãºÃ"), so they are refused.
const gbk = Buffer.from('c4e3bac3cac0bde7a3acd5e2cac7d2bbb8f6b2e2cad4a1a30a'.repeat(5_000), 'hex');
const cp1251 = Buffer.from('cff0e8e2e5f22c20eae0ea20e4e5ebe03f20ddf2ee20f2e5f1f22e0a'.repeat(5_000), 'hex');
const binaryWithoutNul = crypto.randomBytes(300_000).map((b) => b || 1);

const cases: [string, string, Uint8Array, boolean][] = [
  ['3 MB of UTF-8 text', 'notes.txt', text, true],
  ['text cut inside a character', 'notes.txt', cutInsideCharacter, false],
  ['text with a NUL byte far in', 'notes.md', Buffer.concat([text, Buffer.from([0]), text]), false],
  ['Windows-1252 text (Notepad "ANSI")', 'notes.txt', windows1252, true],
  ['UTF-16 LE with its BOM (Notepad "Unicode")', 'notes.txt', utf16le, true],
  ['UTF-16 BE with its BOM', 'notes.md', utf16beWithBom, true],
  ['UTF-16 LE HTML', 'page.html', utf16leHtml, true],
  ['UTF-8 text with one stray Windows-1252 byte', 'notes.txt', Buffer.concat([text, Buffer.from('caf\xe9', 'latin1'), text]), false],
  ['GBK Chinese without a BOM', 'notes.txt', gbk, false],
  ['Windows-1251 Russian without a BOM', 'notes.txt', cp1251, false],
  ['binary without NUL bytes', 'notes.txt', binaryWithoutNul, false],
  ['binary after a UTF-16 BOM', 'notes.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), crypto.randomBytes(200_000)]), false],
  ['UTF-16 LE text with a BOM but NUL characters', 'notes.txt', Buffer.concat([utf16le, Buffer.from([0, 0])]), false],
  ['HTML', 'page.html', Buffer.concat([Buffer.from('<!doctype html><p>'), text]), true],
  ['text named .html', 'page.html', text, false],
  ['a PDF', 'paper.pdf', makePdf(['Page one.']), true],
  ['text named .pdf', 'paper.pdf', text, false],
  ['a DOCX with a 3 MB picture', 'letter.docx', docxWithPicture, true],
  ['a DOCX cut short', 'letter.docx', docxWithPicture.subarray(0, docxWithPicture.length - 100), false],
  ['a PDF named .docx', 'letter.docx', makePdf(['Page one.']), false],
];

describe('documents judged as they stream', () => {
  it.each(cases)('%s: the same verdict whole and in chunks of any size', (_what, name, bytes, ok) => {
    const whole = sniffDocument(name, bytes);
    expect(whole.ok).toBe(ok);
    for (const size of [1_000, 4_095, 65_536, 1_048_577]) expect(streamed(name, bytes, size)).toEqual(whole);
  });

  it('a byte order mark split over chunks of one byte still counts', () => {
    const small = utf16le.subarray(0, 2 + 2 * 40);
    expect(streamed('notes.txt', small, 1)).toEqual({ ok: true, kind: 'text', mimeType: 'text/plain' });
    expect(streamed('notes.txt', Buffer.from('na\xefve caf\xe9', 'latin1'), 1)).toEqual({ ok: true, kind: 'text', mimeType: 'text/plain' });
  });

  it('an empty file and an unsupported name are refused with their messages', () => {
    expect(streamed('notes.txt', new Uint8Array(0), 10)).toEqual({ ok: false, error: expect.stringContaining('empty') });
    expect(new DocumentSniffer('tool.exe').kind).toBeUndefined();
    expect(streamed('tool.exe', text, 65_536).ok).toBe(false);
  });
});
