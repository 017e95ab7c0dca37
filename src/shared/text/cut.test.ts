// Cutting text to a length never splits a character: an emoji cut in half is saved as U+FFFD.
import { describe, expect, it } from 'vitest';
import { cutIndex, headOf, truncate, headAtWord } from './cut';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('cutting text', () => {
  it('never cuts an emoji in half (a surrogate pair straddling the limit)', () => {
    const text = `${'x'.repeat(58)}🌸🌸 more`;
    expect(headOf(text, 59)).toBe('x'.repeat(58));
    expect(LONE_SURROGATE.test(headOf(text, 59))).toBe(false);
    expect(headOf(text, 60)).toBe(`${'x'.repeat(58)}🌸`);
  });

  it('keeps a whole grapheme: a family joined by ZWJ, a flag, an accent typed as a combining mark', () => {
    const family = '👨‍👩‍👧';
    expect(headOf(`ab${family}cd`, 6)).toBe('ab');
    expect(headOf(`ab${family}cd`, 2 + family.length)).toBe(`ab${family}`);
    expect(headOf('go 🇫🇷 now', 5)).toBe('go ');
    expect(headOf('cre\u0300me', 3)).toBe('cr');
  });

  it('is the text itself when it fits, and an index at a boundary otherwise', () => {
    expect(headOf('short', 10)).toBe('short');
    expect(cutIndex('abc', 0)).toBe(0);
    expect(cutIndex(`a😀b`, 2)).toBe(1);
  });

  it('cuts a single grapheme longer than the look-behind at a code point, not nowhere', () => {
    const zalgo = `a${'\u0301'.repeat(200)}`;
    const head = headOf(zalgo, 100);
    expect(head.length).toBeGreaterThan(0);
    expect(head.length).toBeLessThanOrEqual(100);
  });

  it('truncate marks the cut with … and stays within the limit', () => {
    expect(truncate('fits', 10)).toBe('fits');
    const t = truncate(`${'x'.repeat(58)}🌸🌸 more words here`, 60);
    expect(t).toBe(`${'x'.repeat(58)}…`);
    expect(t.length).toBeLessThanOrEqual(60);
    expect(truncate('one two three', 8)).toBe('one two…');
  });
});

describe('headAtWord', () => {
  it('ends after the last sentence within the limit, else at a word end, else at a grapheme', () => {
    expect(headAtWord('One two. Three four five six.', 22)).toBe('One two.');
    expect(headAtWord('alpha beta gamma delta', 13)).toBe('alpha beta');
    expect(headAtWord('alpha beta gamma delta', 16)).toBe('alpha beta gamma');
    expect(headAtWord('short', 10)).toBe('short');
    expect(headAtWord('漢字'.repeat(10), 5)).toBe('漢字漢字漢');
    expect(headAtWord('a 👍🏽👍🏽', 5)).toBe('a');
  });
});
