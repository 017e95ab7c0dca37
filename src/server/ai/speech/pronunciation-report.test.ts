import { describe, expect, it } from 'vitest';
import { alignApproximate, buildReport } from './pronunciation-report';

describe('approximate alignment (offline)', () => {
  it('scores words heard as themselves by confidence, substitutions below 60, omissions 0, and lists insertions', () => {
    const words = alignApproximate(['the', 'weather', 'is', 'unpredictable'], [
      { word: 'the', confidence: 1 },
      { word: 'weather', confidence: 0.5 },
      { word: 'was', confidence: 0.2 },
      { word: 'on', confidence: 0.1 },
      { word: 'unpredictable', confidence: 0.9 },
    ]);
    expect(words.map((w) => [w.word, w.errorType])).toEqual([
      ['the', 'None'],
      ['weather', 'None'],
      ['is', 'Mispronunciation'],
      ['on', 'Insertion'],
      ['unpredictable', 'None'],
    ]);
    expect(words[0]!.accuracyScore).toBe(100);
    expect(words[1]!.accuracyScore).toBe(80);
    expect(words[2]!.accuracyScore).toBeLessThan(60);
    expect(words[2]!.actual).toBe('was');
  });

  it('a word not heard at all is an omission', () => {
    const words = alignApproximate(['please', 'say', 'thoroughly'], [
      { word: 'please', confidence: 1 },
      { word: 'say', confidence: 1 },
    ]);
    expect(words.at(-1)).toEqual({ word: 'thoroughly', accuracyScore: 0, errorType: 'Omission' });
  });
});

describe('the report', () => {
  it('averages the reference words and lists mispronunciations worst first with priorities', () => {
    const report = buildReport({
      engine: 'azure',
      approximate: false,
      referenceText: 'a b c d',
      heardText: 'a x c',
      words: [
        { word: 'a', accuracyScore: 100, errorType: 'None' },
        { word: 'b', accuracyScore: 50, errorType: 'Mispronunciation', actual: 'x' },
        { word: 'c', accuracyScore: 58, errorType: 'None' },
        { word: 'd', accuracyScore: 0, errorType: 'Omission' },
        { word: 'e', accuracyScore: 0, errorType: 'Insertion' },
      ],
    });
    expect(report.accuracyScore).toBe(52);
    expect(report.mispronunciations).toEqual([
      { expected: 'd', actual: '', accuracyScore: 0, priority: 'high' },
      { expected: '', actual: 'e', accuracyScore: 0, priority: 'high' },
      { expected: 'b', actual: 'x', accuracyScore: 50, priority: 'medium' },
      { expected: 'c', actual: 'c', accuracyScore: 58, priority: 'medium' },
    ]);
  });
});
