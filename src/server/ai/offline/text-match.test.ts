// The words a question names something by (retrieval declines a question naming what the
// documents never mention).
import { describe, expect, it } from 'vitest';
import { namedWords } from './text-match';

describe('namedWords', () => {
  it('finds capitalized words past the start of a sentence, never "I" or stop words', () => {
    expect(namedWords('Have you ever visited Japan?')).toEqual(['Japan']);
    expect(namedWords("What is Callum's favourite novel? Did Anna like it?")).toEqual(["Callum's", 'Anna']);
    expect(namedWords("Where did I grow up, and where I'm going?")).toEqual([]);
    expect(namedWords('Which university trained you?')).toEqual([]);
    expect(namedWords('can you speak Italian')).toEqual(['Italian']);
  });
});
