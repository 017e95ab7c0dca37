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

const cases: [string, string, Uint8Array, boolean][] = [
  ['3 MB of UTF-8 text', 'notes.txt', text, true],
  ['text cut inside a character', 'notes.txt', cutInsideCharacter, false],
  ['text with a NUL byte far in', 'notes.md', Buffer.concat([text, Buffer.from([0]), text]), false],
  ['Latin-1 bytes', 'notes.txt', Buffer.from('caf\xe9 '.repeat(100_000), 'latin1'), false],
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

  it('an empty file and an unsupported name are refused with their messages', () => {
    expect(streamed('notes.txt', new Uint8Array(0), 10)).toEqual({ ok: false, error: expect.stringContaining('empty') });
    expect(new DocumentSniffer('tool.exe').kind).toBeUndefined();
    expect(streamed('tool.exe', text, 65_536).ok).toBe(false);
  });
});
