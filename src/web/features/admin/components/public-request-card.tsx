// One pending public request: personality, requester, age, Pending badge, description, behavior
// instructions (3 lines), the requester's message, and Approve / Reject. A request whose
// personality was deleted can only be rejected.
import { formatDistanceToNow } from 'date-fns';
import { CheckIcon, ClockIcon, LoaderCircleIcon, Trash2Icon, XIcon } from 'lucide-react';
import type { AdminPublicRequest } from '../../../../shared/schemas/admin';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';

interface Props {
  request: AdminPublicRequest;
  /** The decision being sent for this request, if any. */
  busy: 'approve' | 'reject' | null;
  onDecide: (decision: 'approve' | 'reject') => void;
}

export const ago = (iso: string) => `${formatDistanceToNow(new Date(iso))} ago`;

export function PublicRequestCard({ request: r, busy, onDecide }: Props) {
  const titleId = `request-${r.id}-name`;
  return (
    <Card role="article" aria-labelledby={titleId} className="gap-4">
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle id={titleId} className={r.personalityDeleted ? 'text-lg text-muted-foreground line-through' : 'text-lg'}>
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
          <p className="text-sm text-muted-foreground">
            Requested as &ldquo;{r.personalityNameAtRequest}&rdquo;; the personality has since been deleted.
          </p>
        )}
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {r.description && <p className="break-words whitespace-pre-line">{r.description}</p>}
        {r.behaviorInstructions && (
          <div className="grid gap-1">
            <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Behavior instructions</p>
            {/* Padding on the wrapper: inside the clamped box a 4th line would peek through it. */}
            <div className="rounded-md bg-muted/60 px-3 py-2">
              <p
                data-testid="behavior-instructions"
                className="line-clamp-3 break-words whitespace-pre-line text-muted-foreground"
              >
                {r.behaviorInstructions}
              </p>
            </div>
          </div>
        )}
        {r.requestMessage && (
          <div className="grid gap-1">
            <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Message from requester</p>
            <blockquote className="border-l-2 border-primary/50 pl-3 break-words whitespace-pre-line italic">
              {r.requestMessage}
            </blockquote>
          </div>
        )}
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        {r.personalityDeleted ? (
          <Button variant="destructive" size="sm" disabled={busy !== null} onClick={() => onDecide('reject')}>
            {busy === 'reject' ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <XIcon aria-hidden />}
            Reject (Personality Deleted)
          </Button>
        ) : (
          <>
            <Button
              size="sm"
              className="bg-success text-success-foreground hover:bg-success/90"
              disabled={busy !== null}
              onClick={() => onDecide('approve')}
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
              onClick={() => onDecide('reject')}
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
