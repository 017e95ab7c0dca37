// Invisible characters are removed from extracted text (a prompt-injection carrier), except the
// joiners and the emoji selector where writing needs them: inside a Persian, Hindi or Sinhala word,
// and inside an emoji.
import { describe, expect, it } from 'vitest';
import { normalizeExtractedText } from './text-normalize';

const ZWNJ = '\u200C';
const ZWJ = '\u200D';
const VS16 = '\uFE0F';

describe('joiners and the emoji selector', () => {
  it('keeps a zero-width non-joiner between two letters (Persian "I want", "books")', () => {
    const persian = `می${ZWNJ}خواهم کتاب${ZWNJ}ها`;
    expect(normalizeExtractedText(persian)).toBe(persian);
  });

  it('keeps a zero-width joiner between a letter and a mark (Hindi क्‍ष)', () => {
    const hindi = `क्${ZWJ}ष`;
    expect(normalizeExtractedText(hindi)).toBe(hindi);
  });

  it('keeps the joiners and selectors of an emoji: a family, a heart, a rainbow flag, a keycap, a skin tone', () => {
    for (const emoji of ['👨‍👩‍👧', '❤️', '❤️‍🔥', '🏳️‍🌈', '👩🏽‍💻', '1️⃣', '#️⃣']) {
      expect(normalizeExtractedText(`I love ${emoji} a lot`), emoji).toBe(`I love ${emoji} a lot`);
    }
  });

  it('removes them alone, at the start or end, next to a space or punctuation, or in runs (hidden messages)', () => {
    expect(normalizeExtractedText(`${ZWJ}start end${ZWNJ}`)).toBe('start end');
    expect(normalizeExtractedText(`a ${ZWNJ} b, c${ZWJ}. d${VS16} 7${VS16}`)).toBe('a b, c. d 7');
    expect(normalizeExtractedText(`ke${ZWNJ}${ZWJ}${ZWNJ}${ZWJ}ep`)).toBe('keep');
    expect(normalizeExtractedText(`ke${ZWNJ}\u200B${ZWJ}ep`)).toBe('keep');
    expect(normalizeExtractedText(`a${ZWNJ}${VS16}${ZWNJ}b`)).toBe('ab');
    expect(normalizeExtractedText(`😀${VS16}${VS16}${ZWJ}${ZWJ}😀`)).toBe(`😀${VS16}😀`);
    // A Hangul filler is a letter by category but invisible: no neighbour to keep a joiner for.
    expect(normalizeExtractedText(`a${ZWNJ}\u3164${ZWNJ}b`)).toBe('ab');
  });

  // Linear work takes seconds here; a quadratic pass over 10 MB would take hours and meet the
  // test's limit. No duration is asserted: a loaded CI machine took 7.9 s for the linear one.
  it('stays linear on a 10 MB line of joiners between letters', () => {
    const line = `a${ZWNJ}`.repeat(5_000_000);
    expect(normalizeExtractedText(line).length).toBe(line.length - 1);
  }, 45_000);
});
