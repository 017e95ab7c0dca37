// "Required" means something shows: invisible characters alone are blank, real writing never is.
import { describe, expect, it } from 'vitest';
import { cleanName, hasVisibleText, isBlank, withoutBidiOverrides } from './visible';

describe('isBlank / hasVisibleText', () => {
  it.each([
    ['empty', ''],
    ['spaces, tabs and new lines', ' \t\n\r '],
    ['no-break and ideographic spaces', '\u00A0\u2003\u3000\u202F'],
    ['a zero-width space', '\u200B'],
    ['a zero-width joiner', '\u200D'],
    ['a zero-width non-joiner', '\u200C'],
    ['a right-to-left mark', '\u200F'],
    ['a left-to-right mark and an Arabic letter mark', '\u200E\u061C'],
    ['a right-to-left override', '\u202E'],
    ['bidi isolates', '\u2066\u2067\u2068\u2069'],
    ['a byte order mark', '\uFEFF'],
    ['a soft hyphen', '\u00AD'],
    ['a word joiner', '\u2060'],
    ['a lone combining accent', '\u0301'],
    ['combining marks after a space', '  \u0301\u0308'],
    ['a combining grapheme joiner', '\u034F'],
    ['variation selectors', '\uFE0F\uFE0E'],
    ['Hangul fillers', '\u3164\u115F\u1160\uFFA0'],
    ['tag characters (ASCII smuggling)', '\u{E0041}\u{E0042}'],
    ['a Mongolian vowel separator', '\u180E'],
    ['a blank Braille pattern', '\u2800'],
    ['control characters', '\u0000\u0007\u001B\u007F\u0085'],
    ['a lone surrogate', '\uD83D'],
    ['a mix of all of them', ' \u200B\u200D\u200F\u0301\uFEFF\u202E\u3164 '],
  ])('%s is blank', (_label, text) => {
    expect(isBlank(text)).toBe(true);
    expect(hasVisibleText(text)).toBe(false);
  });

  it.each([
    ['a letter', 'a'],
    ['a word with spaces around it', '  Ada  '],
    ['a digit', '0'],
    ['punctuation', '?'],
    ['an accent typed as a combining mark, on its letter', 'e\u0301'],
    ['a family emoji joined by ZWJ', '👩‍👩‍👧'],
    ['an emoji with its presentation selector', '❤️'],
    ['a flag', '🇫🇷'],
    ['a keycap', '1️⃣'],
    ['a Persian word with a ZWNJ', 'می\u200Cخواهم'],
    ['a Hindi conjunct with a ZWJ', 'क्\u200Dष'],
    ['Arabic', 'مرحبا'],
    ['Hebrew with a right-to-left mark', '\u200Fשלום'],
    ['Chinese', '李白'],
    ['a letter hidden among invisibles', '\u200B\u200Dx\u200F'],
    ['a Thai vowel sign on its consonant', 'กิ'],
  ])('%s is not blank', (_label, text) => {
    expect(hasVisibleText(text)).toBe(true);
    expect(isBlank(text)).toBe(false);
  });

  it('treats null and undefined as blank', () => {
    expect(isBlank(null)).toBe(true);
    expect(isBlank(undefined)).toBe(true);
  });
});

describe('withoutBidiOverrides / cleanName', () => {
  it('removes embeddings, overrides and isolates, so a name cannot be shown reversed', () => {
    expect(withoutBidiOverrides('Albert \u202Enietsnie')).toBe('Albert nietsnie');
    expect(withoutBidiOverrides('\u202Aa\u202Bb\u202Cc\u202Dd\u202Ee\u2066f\u2067g\u2068h\u2069')).toBe('abcdefgh');
  });

  it('keeps everything else as it was: joiners, direction marks, emoji, accents', () => {
    for (const text of ['👩‍👩‍👧 family', 'می\u200Cخواهم', '\u200Fשלום 42', 'e\u0301', 'Zoë 🌸']) {
      expect(withoutBidiOverrides(text)).toBe(text);
    }
  });

  it('cleans a name: overrides removed, then trimmed', () => {
    expect(cleanName('  \u202EAda\u202C  ')).toBe('Ada');
    expect(cleanName(' 👩‍👩‍👧 ')).toBe('👩‍👩‍👧');
    expect(isBlank(cleanName('\u202E\u2066'))).toBe(true);
  });
});
