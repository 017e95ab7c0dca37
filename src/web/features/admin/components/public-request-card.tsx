// One pending public request: personality, requester, age, Pending badge, description, behavior
// instructions (3 lines), the requester's message, and Approve / Reject. A request whose
// personality was deleted can only be rejected.
import { CheckIcon, ClockIcon, LoaderCircleIcon, Trash2Icon, XIcon } from 'lucide-react';
import type { AdminPublicRequest } from '../../../../shared/schemas/admin';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { useAgo } from '../../../lib/relative-age';

interface Props {
  request: AdminPublicRequest;
  /** The decision being sent for this request, if any. */
  busy: 'approve' | 'reject' | null;
  /** `from`: the button pressed (focus moves on from it when the card leaves the queue). */
  onDecide: (decision: 'approve' | 'reject', from: HTMLElement) => void;
}

export function PublicRequestCard({ request: r, busy, onDecide }: Props) {
  const ago = useAgo();
  const titleId = `request-${r.id}-name`;
  return (
    <Card role="article" aria-labelledby={titleId} className="min-w-0 gap-4">
      <CardHeader className="min-w-0 gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <CardTitle
            id={titleId}
            dir="auto"
            className={cn('min-w-0 text-lg [overflow-wrap:anywhere]', r.personalityDeleted && 'text-muted-foreground line-through')}
          >
            {r.personalityName}
          </CardTitle>
          <Badge variant="warning">
            <ClockIcon aria-hidden />
            Pending
          </Badge>
          {r.personalityDeleted && (
            <Badge variant="destructive">
              <Trash2Icon aria-hidden />
              Deleted
            </Badge>
          )}
        </div>
        <p className="text-sm text-muted-foreground">
          Requested by <span className="font-medium wrap-anywhere text-foreground">{r.requesterEmail}</span>{' '}
          <span aria-hidden>·</span> <time dateTime={r.createdAt}>{ago(r.createdAt)}</time>
        </p>
        {r.personalityDeleted && r.personalityNameAtRequest && (
          <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
            Requested as &ldquo;{r.personalityNameAtRequest}&rdquo;; the personality has since been deleted.
          </p>
        )}
      </CardHeader>
      <CardContent className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3 text-sm">
        {r.description && (
          <p dir="auto" className="[overflow-wrap:anywhere] whitespace-pre-line">
            {r.description}
          </p>
        )}
        {r.behaviorInstructions && (
          <div className="grid gap-1">
            <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Behavior instructions</p>
            {/* Padding on the wrapper: inside the clamped box a 4th line would peek through it. */}
            <div className="rounded-md bg-muted/60 px-3 py-2">
              <p
                data-testid="behavior-instructions"
                dir="auto"
                className="line-clamp-3 [overflow-wrap:anywhere] whitespace-pre-line text-muted-foreground"
              >
                {r.behaviorInstructions}
              </p>
            </div>
          </div>
        )}
        {r.requestMessage && (
          <div className="grid gap-1">
            <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Message from requester</p>
            <blockquote dir="auto" className="border-l-2 border-primary/50 pl-3 [overflow-wrap:anywhere] whitespace-pre-line italic">
              {r.requestMessage}
            </blockquote>
          </div>
        )}
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        {r.personalityDeleted ? (
          <Button variant="destructive" size="sm" disabled={busy !== null} onClick={(e) => onDecide('reject', e.currentTarget)}>
            {busy === 'reject' ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <XIcon aria-hidden />}
            Reject (Personality Deleted)
          </Button>
        ) : (
          <>
            <Button
              size="sm"
              className="bg-success text-success-foreground hover:bg-success/90"
              disabled={busy !== null}
              onClick={(e) => onDecide('approve', e.currentTarget)}
              aria-label={`Approve ${r.personalityName}`}
            >
              {busy === 'approve' ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <CheckIcon aria-hidden />}
              Approve
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="text-destructive hover:text-destructive"
              disabled={busy !== null}
              onClick={(e) => onDecide('reject', e.currentTarget)}
              aria-label={`Reject ${r.personalityName}`}
            >
              {busy === 'reject' ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <XIcon aria-hidden />}
              Reject
            </Button>
          </>
        )}
      </CardFooter>
    </Card>
  );
}
