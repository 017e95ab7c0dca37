// One pending content flag: what was flagged, where, by whom, how sure, and the admin's decision.
import { useId, useState } from 'react';
import { CheckIcon, LoaderCircleIcon, XIcon } from 'lucide-react';
import type { ContentFlag } from '../../../../shared/schemas/moderation';
import { isSevereFlagType, UNVERIFIED_REPORT } from '../../../../shared/schemas/moderation';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { DoNotReadText } from '../../../components/do-not-read-text';
import { formatDateTime } from '../../../lib/date-format';
import { FlaggedPersonalityName } from './flagged-personality-name';

/** Where the flagged text came from: who wrote it matters before anything is done to the personality. */
const SOURCE_LABEL: Record<ContentFlag['source'], string> = {
  message: "A person's message to it",
  reply: 'Its reply',
  document: 'Its document',
  report: 'A reply reported by a person',
};
/** A report whose text the server could not match to a reply the personality gave (moderation.service report). */
const UNVERIFIED_REPORT_LABEL = 'Text a person reported as its reply, not matched to a reply it gave';

interface Props {
  flag: ContentFlag;
  busy: 'approved' | 'rejected' | null;
  /** `from`: the button pressed (focus moves on from it when the card leaves the list). */
  onDecide: (status: 'approved' | 'rejected', adminNotes: string, from: HTMLElement) => void;
}

export function ContentFlagCard({ flag, busy, onDecide }: Props) {
  const notesId = useId();
  const [notes, setNotes] = useState('');
  const types = flag.flagTypes.join(', ');
  return (
    <Card aria-label={`Flag on ${flag.personalityName}`} data-testid="content-flag" className="min-w-0">
      <CardHeader className="min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={isSevereFlagType(flag.flagTypes) ? 'destructive' : 'secondary'} data-testid="flag-types">
            {types}
          </Badge>
          <span className="text-sm text-muted-foreground" data-testid="flag-confidence">
            {Math.round(flag.confidence * 100)}% confidence
          </span>
        </div>
        <CardTitle className="flex min-w-0 flex-wrap items-center gap-2 text-base" data-testid="flag-personality">
          <FlaggedPersonalityName flag={flag} withFormerName />
        </CardTitle>
        <dl className="grid gap-x-4 gap-y-1 text-sm text-muted-foreground sm:grid-cols-[auto_1fr]">
          <dt>Source</dt>
          <dd data-testid="flag-source">{flag.source === 'report' && flag.flagTypes.includes(UNVERIFIED_REPORT) ? UNVERIFIED_REPORT_LABEL : SOURCE_LABEL[flag.source]}</dd>
          {flag.documentFileName && (
            <>
              <dt>Document</dt>
              <dd className="break-all">
                {flag.documentFileName}
                {flag.documentDeleted && <span className="ml-1 text-muted-foreground">(deleted)</span>}
              </dd>
            </>
          )}
          {flag.reporter && (
            <>
              <dt>Reported by</dt>
              <dd className="break-all">{flag.reporter}</dd>
            </>
          )}
          {flag.reportReason && (
            <>
              <dt>Reason</dt>
              <dd dir="auto" className="[overflow-wrap:anywhere]">
                {flag.reportReason}
              </dd>
            </>
          )}
          <dt>Flagged</dt>
          <dd>
            <time dateTime={flag.createdAt}>{formatDateTime(flag.createdAt)}</time>
          </dd>
        </dl>
      </CardHeader>
      <CardContent className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3">
        {/* Text only: an excerpt is user content and is never rendered as HTML. */}
        <blockquote dir="auto" className="whitespace-pre-wrap [overflow-wrap:anywhere] rounded-md border-l-4 border-destructive/50 bg-muted/50 px-3 py-2 text-sm" data-testid="flag-excerpt">
          <DoNotReadText text={flag.excerpt} />
        </blockquote>
        <div className="grid gap-1.5">
          <Label htmlFor={notesId}>Admin notes (optional)</Label>
          <Textarea id={notesId} value={notes} maxLength={2000} onChange={(e) => setNotes(e.target.value)} rows={2} />
        </div>
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        <Button variant="destructive" size="sm" disabled={busy !== null} onClick={(e) => onDecide('approved', notes, e.currentTarget)}>
          {busy === 'approved' ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <CheckIcon aria-hidden />}
          Confirm Violation
        </Button>
        <Button variant="outline" size="sm" disabled={busy !== null} onClick={(e) => onDecide('rejected', notes, e.currentTarget)}>
          {busy === 'rejected' ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <XIcon aria-hidden />}
          False Positive
        </Button>
      </CardFooter>
    </Card>
  );
}
