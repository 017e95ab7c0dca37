// The words a question names something by (retrieval declines a question naming what the
// documents never mention).
import { describe, expect, it } from 'vitest';
import { contentTerms, contentWords, namedWords, overlap, sentences, words } from './text-match';

describe('namedWords', () => {
  it('finds capitalized words past the start of a sentence, never "I" or stop words', () => {
    expect(namedWords('Have you ever visited Japan?')).toEqual(['Japan']);
    expect(namedWords("What is Callum's favourite novel? Did Anna like it?")).toEqual(["Callum's", 'Anna']);
    expect(namedWords("Where did I grow up, and where I'm going?")).toEqual([]);
    expect(namedWords('Which university trained you?')).toEqual([]);
    expect(namedWords('can you speak Italian')).toEqual(['Italian']);
  });
});

describe('words of scripts other than English', () => {
  it('keeps combining marks inside a word (Devanagari, Thai, vowelled Arabic), not one-letter fragments', () => {
    expect(words('प्रेमचंद का जन्म')).toEqual(['प्रेमचंद', 'का', 'जन्म']);
    expect(words('مُحَمَّد')).toEqual(['مُحَمَّد']);
    expect(contentWords('प्रेमचंद ने गोदान लिखा')).toContain('प्रेमचंद');
  });

  it('matches Chinese and Japanese by overlapping pairs of characters (a run has no spaces to split on)', () => {
    expect(words('李白是谁')).toEqual(['李白', '白是', '是谁']);
    // A single character alone is its own unit; other scripts around it stay words.
    expect(words('水 and 東京タワー')).toEqual(['水', 'and', '東京', '京タ', 'タワ', 'ワー']);
    expect(contentWords('水は?')).toEqual(['水は']);
    expect(contentWords('茶')).toEqual(['茶']);
    expect(overlap(contentTerms('李白是谁？'), '李白是唐朝著名的诗人。')).toBe(2);
  });

  it('reads accents typed as combining marks (NFD) as the same word as the composed form (NFC)', () => {
    expect(words('cre\u0300me bru\u0302le\u0301e')).toEqual(['crème', 'brûlée']);
    expect(overlap(contentTerms('cre\u0300me bru\u0302le\u0301e'), 'I made a crème brûlée.')).toBe(2);
  });
});

describe('sentences of scripts other than English', () => {
  it('ends a Chinese or Japanese sentence at 。！？ (no space follows them)', () => {
    expect(sentences('李白是唐朝著名的诗人。他出生于公元七零一年！李白最喜欢什么？')).toEqual(['李白是唐朝著名的诗人。', '他出生于公元七零一年！', '李白最喜欢什么？']);
    expect(sentences('東京は日本の首都です。「本当？」と彼は言った。')).toEqual(['東京は日本の首都です。', '「本当？」と彼は言った。']);
    expect(sentences('価格は３．５ドルです。安い！？')).toEqual(['価格は３．５ドルです。', '安い！？']);
  });

  it('ends a sentence after । ۔ ؟ and after a full stop followed by a letter of a script without capitals', () => {
    expect(sentences('प्रेमचंद का जन्म लमही में हुआ था। उन्होंने गोदान लिखा। उनका भोजन खिचड़ी था।')).toEqual([
      'प्रेमचंद का जन्म लमही में हुआ था।',
      'उन्होंने गोदान लिखा।',
      'उनका भोजन खिचड़ी था।',
    ]);
    expect(sentences('ولد جبران في بشري. كتب كتاب النبي. هل توفي في نيويورك؟ نعم.')).toEqual(['ولد جبران في بشري.', 'كتب كتاب النبي.', 'هل توفي في نيويورك؟', 'نعم.']);
    expect(sentences('یہ میری کتاب ہے۔ وہ اس کا گھر ہے۔')).toEqual(['یہ میری کتاب ہے۔', 'وہ اس کا گھر ہے۔']);
  });

  it('splits English exactly as before: a stop then a capital, not "e.g. something"', () => {
    expect(sentences('I met him in 1833. We spoke for hours! Was it late? e.g. not. Yes.')).toEqual(['I met him in 1833.', 'We spoke for hours!', 'Was it late? e.g. not.', 'Yes.']);
  });

  it('cuts a long run without punctuation between characters, never through an emoji', () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const run = `x${'🌸'.repeat(300)}`;
    const pieces = sentences(run);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.some((p) => lone.test(p))).toBe(false);
    expect(pieces.join('')).toBe(run);
    expect(pieces.every((p) => p.length <= 300)).toBe(true);
  });
});
