import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { messages } from '../../../../shared/messages';
import type { PronunciationReport } from '../../../../shared/schemas/pronunciation';
import { PronunciationReportView } from './pronunciation-report';

const report: PronunciationReport = {
  available: true,
  engine: 'pocketsphinx',
  approximate: true,
  referenceText: 'the weather is unpredictable',
  heardText: 'the weather was on predictable',
  accuracyScore: 58,
  wordDetails: [
    { word: 'the', accuracyScore: 98, errorType: 'None' },
    { word: 'weather', accuracyScore: 72, errorType: 'None' },
    { word: 'is', accuracyScore: 20, errorType: 'Mispronunciation' },
    { word: '<b>unpredictable</b>', accuracyScore: 0, errorType: 'Omission' },
  ],
  mispronunciations: [
    { expected: '<b>unpredictable</b>', actual: '', accuracyScore: 0, priority: 'high' },
    { expected: 'is', actual: 'was', accuracyScore: 20, priority: 'high' },
    { expected: '', actual: 'on', accuracyScore: 0, priority: 'high' },
  ],
};

describe('pronunciation report', () => {
  it('shows every word with its score and error type, the overall score, the approximate label, and mispronunciations in order', () => {
    render(<PronunciationReportView report={report} />);
    const region = screen.getByRole('region', { name: 'Pronunciation report' });
    expect(region).toHaveTextContent('Pronunciation 58/100');
    expect(region).toHaveTextContent(messages.voice.pronunciationApproximate);
    const words = within(screen.getByRole('list', { name: 'Words' })).getAllByRole('listitem');
    expect(words.map((w) => w.getAttribute('data-error-type'))).toEqual(['None', 'None', 'Mispronunciation', 'Omission']);
    expect(words[2]).toHaveTextContent('is: 20 out of 100, Mispronunciation');
    // Each word's score is shown beside it, not only to screen readers or on hover (touch screens have none).
    const shown = words.map((w) => within(w).getByTestId('word-score'));
    expect(shown.map((s) => s.textContent)).toEqual(['98', '72', '20', '0']);
    for (const s of shown) expect(s.closest('.sr-only')).toBeNull();
    expect(words[2]!.className).toContain('destructive');
    expect(words[1]!.className).toContain('amber');
    // Words are text, never markup.
    expect(words[3]!.querySelector('b')).toBeNull();
    expect(words[3]).toHaveTextContent('<b>unpredictable</b>');
    const list = within(screen.getByRole('list', { name: 'Mispronunciations by priority' })).getAllByRole('listitem');
    expect(list.map((li) => li.textContent)).toEqual(['high“<b>unpredictable</b>” not heard0/100', 'high“is” heard as “was”20/100', 'highextra “on”0/100']);
  });

  it('says when no assessment was possible', () => {
    render(<PronunciationReportView report={{ ...report, available: false, wordDetails: [], mispronunciations: [], accuracyScore: null, message: messages.voice.pronunciationUnavailable }} />);
    expect(screen.getByRole('note', { name: 'Pronunciation report' })).toHaveTextContent(messages.voice.pronunciationUnavailable);
  });
});
