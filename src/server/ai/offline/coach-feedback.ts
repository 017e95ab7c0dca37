// The offline responder's pronunciation feedback (phonetic mode, no model configured): the report's
// words that need work, worst first, in plain sentences, before the usual answer.
import type { PronunciationReport } from '../../../shared/schemas/pronunciation';

const MAX_WORDS = 4;

export function composeCoachFeedback(report: PronunciationReport): string {
  const score = report.accuracyScore ?? 0;
  const opening =
    score >= 90 ? `Lovely pronunciation: ${score} out of 100.` : score >= 70 ? `Good effort: ${score} out of 100.` : `Let's work on this together: ${score} out of 100.`;
  const needsWork = report.mispronunciations.filter((m) => m.expected).slice(0, MAX_WORDS);
  if (needsWork.length === 0) return `${opening} Every word came through clearly.`;
  const lines = needsWork.map((m) =>
    m.actual && m.actual.toLowerCase() !== m.expected.toLowerCase()
      ? `"${m.expected}" sounded like "${m.actual}" (${m.accuracyScore}/100): say it slowly, syllable by syllable, then at normal speed.`
      : m.actual
        ? `"${m.expected}" needs a little more care (${m.accuracyScore}/100): stress it clearly and finish every sound.`
        : `"${m.expected}" was not heard: say it fully, without skipping it.`,
  );
  return `${opening} Practise these: ${lines.join(' ')}${report.approximate ? ' (This is an approximate, offline assessment.)' : ''}`;
}
