// The Pronunciation report under a spoken message (phonetic mode): each word of what was meant,
// coloured by how it was pronounced, with its score beside it (the error type on hover and for
// screen readers),
// then the mispronunciations by priority. Words are text, never HTML.
import { messages } from '../../../../shared/messages';
import type { PronunciationReport, WordErrorType } from '../../../../shared/schemas/pronunciation';
import { cn } from '../../../lib/cn';

function wordTone(score: number, type: WordErrorType): string {
  if (type === 'Omission') return 'text-muted-foreground line-through decoration-destructive';
  if (type === 'Insertion') return 'text-muted-foreground italic';
  if (type === 'Mispronunciation' || score < 60) return 'bg-destructive/15 text-destructive';
  if (score < 80) return 'bg-amber-500/15 text-amber-800 dark:text-amber-300';
  return 'bg-emerald-500/15 text-emerald-800 dark:text-emerald-300';
}

const PRIORITY_TONE = { high: 'text-destructive', medium: 'text-amber-700 dark:text-amber-400', low: 'text-muted-foreground' } as const;

export function PronunciationReportView({ report }: { report: PronunciationReport }) {
  if (!report.available) {
    return (
      <p role="note" aria-label="Pronunciation report" className="max-w-[85%] text-xs text-muted-foreground">
        {report.message ?? messages.voice.pronunciationUnavailable}
      </p>
    );
  }
  return (
    <section aria-label="Pronunciation report" className="grid max-w-[85%] gap-2 rounded-xl border bg-card p-3 text-xs shadow-sm">
      <p className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium">Pronunciation {report.accuracyScore ?? '–'}/100</span>
        {report.approximate && <span className="text-muted-foreground">{messages.voice.pronunciationApproximate}</span>}
      </p>
      <ul aria-label="Words" className="flex flex-wrap gap-1">
        {report.wordDetails.map((w, i) => (
          <li
            key={`${i}-${w.word}`}
            data-error-type={w.errorType}
            title={`${w.accuracyScore}/100${w.errorType === 'None' ? '' : ` · ${w.errorType}`}`}
            className={cn('rounded px-1.5 py-0.5 font-medium', wordTone(w.accuracyScore, w.errorType))}
          >
            {w.word}
            <span className="sr-only">: </span>
            {/* Shown, not only on hover: a touch screen has no hover, and the score is the point. */}
            <span data-testid="word-score" className="ml-1 align-super text-[0.65rem] font-normal tabular-nums opacity-80">
              {w.accuracyScore}
            </span>
            <span className="sr-only">{` out of 100${w.errorType === 'None' ? '' : `, ${w.errorType}`}`}</span>
          </li>
        ))}
      </ul>
      {report.mispronunciations.length > 0 && (
        <ol aria-label="Mispronunciations by priority" className="grid gap-0.5">
          {report.mispronunciations.map((m, i) => (
            <li key={`${i}-${m.expected}-${m.actual}`} className="flex flex-wrap gap-x-1.5">
              <span className={cn('font-semibold capitalize', PRIORITY_TONE[m.priority])}>{m.priority}</span>
              <span>
                {m.expected ? `“${m.expected}”` : `extra “${m.actual}”`}
                {m.expected && m.actual && m.actual.toLowerCase() !== m.expected.toLowerCase() ? ` heard as “${m.actual}”` : ''}
                {m.expected && !m.actual ? ' not heard' : ''}
              </span>
              <span className="text-muted-foreground tabular-nums">{m.accuracyScore}/100</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
