// "Recent Reviews": the latest reviewed requests (the server sends up to 5) with their outcome.
import { CheckIcon, XIcon } from 'lucide-react';
import type { AdminPublicRequest } from '../../../../shared/schemas/admin';
import { Badge } from '../../../components/ui/badge';
import { useAgo } from '../../../lib/relative-age';

export function RecentReviews({ reviews }: { reviews: AdminPublicRequest[] }) {
  const ago = useAgo();
  return (
    <section aria-labelledby="recent-reviews-title" className="grid gap-3">
      <h2 id="recent-reviews-title" className="font-display text-lg font-semibold">
        Recent Reviews
      </h2>
      {reviews.length === 0 ? (
        <p className="text-sm text-muted-foreground">No reviews yet.</p>
      ) : (
        <ul className="grid divide-y rounded-xl border bg-card" aria-label="Recent reviews">
          {reviews.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm">
              <div className="grid min-w-0 gap-0.5">
                <span dir="auto" className={r.personalityDeleted ? 'font-medium text-muted-foreground line-through [overflow-wrap:anywhere]' : 'font-medium [overflow-wrap:anywhere]'}>
                  {r.personalityName}
                </span>
                {/* Deleted since: which one it was, by the name it had when it was asked for. */}
                {r.personalityDeleted && r.personalityNameAtRequest && (
                  <span dir="auto" className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
                    Requested as &ldquo;{r.personalityNameAtRequest}&rdquo;
                  </span>
                )}
                <span className="text-xs wrap-anywhere text-muted-foreground">{r.requesterEmail}</span>
              </div>
              <div className="flex items-center gap-3">
                {r.status === 'approved' ? (
                  <Badge variant="success">
                    <CheckIcon aria-hidden />
                    Approved
                  </Badge>
                ) : (
                  <Badge variant="destructive">
                    <XIcon aria-hidden />
                    Rejected
                  </Badge>
                )}
                {r.reviewedAt && (
                  <time dateTime={r.reviewedAt} className="text-xs whitespace-nowrap text-muted-foreground">
                    Reviewed {ago(r.reviewedAt)}
                  </time>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
