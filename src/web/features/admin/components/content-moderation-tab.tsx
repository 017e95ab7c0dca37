// Content Moderation (spec section 2): "Pending Content Flags (n)" with Confirm Violation and
// False Positive, then "Recently Reviewed" (up to 10). n counts every pending flag; they come 50 at
// a time, newest first, with "Show older flags" for the next. A confirmed violation on a
// personality that is still public offers "Make Private" right there; a deleted personality's
// flags stay listed (and reviewable) as "[Deleted Personality]", with nothing to make private.
import { useRef } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../../shared/messages';
import { Badge } from '../../../components/ui/badge';
import { formatDateTime } from '../../../lib/date-format';
import { focusAfterRemoval, focusWhenLost } from '../../../lib/focus-management';
import { useContentFlags, useReviewFlag } from '../api/content-flags';
import { AdminEmpty, AdminListSkeleton, AdminLoadError } from './admin-states';
import { ContentFlagCard } from './content-flag-card';
import { FlaggedPersonalityName } from './flagged-personality-name';
import { RevertPersonalityDialog } from './revert-personality-dialog';
import { ShowOlder } from './show-older';

const FLAG_ACTION = 'button:not([disabled])';

export function ContentModerationTab() {
  const flags = useContentFlags();
  const review = useReviewFlag();
  const pendingList = useRef<HTMLDivElement>(null);

  function decide(flagId: string, status: 'approved' | 'rejected', adminNotes: string, from: HTMLElement) {
    // The reviewed flag leaves the pending list (its buttons are disabled meanwhile): focus goes
    // to the next flag's first action, else the previous one's, else the list's heading.
    const stopWaiting = focusAfterRemoval(from.closest('[data-testid="content-flag"]'), () => document.getElementById('pending-flags-title'), {
      control: FLAG_ACTION,
    });
    review.mutate(
      { flagId, status, adminNotes },
      {
        onSuccess: () => toast.success(messages.admin.flagUpdated),
        onError: (err) => {
          stopWaiting();
          focusWhenLost(() => from);
          toast.error(messages.admin.flagUpdateFailed(err instanceof Error ? err.message : String(err)));
        },
      },
    );
  }

  if (flags.isPending) return <AdminListSkeleton label="Loading content flags" />;
  if (flags.isError && !flags.data) {
    return <AdminLoadError title={messages.admin.loadFlagsFailed} error={flags.error} onRetry={() => void flags.refetch()} />;
  }
  // The first page's count and reviews: it is fetched first, so they are the newest.
  const { pendingTotal, recent } = flags.data.pages[0]!;
  const pending = flags.data.pages.flatMap((page) => page.pending);
  return (
    <div className="grid gap-8">
      <section aria-labelledby="pending-flags-title" className="grid gap-3">
        <h2 id="pending-flags-title" tabIndex={-1} className="font-display text-xl font-semibold outline-none">
          Pending Content Flags ({pendingTotal})
        </h2>
        {pending.length === 0 ? (
          <AdminEmpty text={messages.admin.noPendingFlags} hint="Messages, replies, documents and reports that need a look appear here." />
        ) : (
          <div ref={pendingList} className="grid grid-cols-[minmax(0,1fr)] gap-4">
            {pending.map((f) => (
              <ContentFlagCard
                key={f.id}
                flag={f}
                busy={review.isPending && review.variables?.flagId === f.id ? review.variables.status : null}
                onDecide={(status, notes, from) => decide(f.id, status, notes, from)}
              />
            ))}
          </div>
        )}
        {flags.hasNextPage && (
          <ShowOlder
            shown={pending.length}
            total={pendingTotal}
            label="Show older flags"
            failedText="Failed to load older flags"
            loading={flags.isFetchingNextPage}
            onShowOlder={() => flags.fetchNextPage()}
            list={() => pendingList.current}
            control={FLAG_ACTION}
          />
        )}
      </section>
      <section aria-labelledby="reviewed-flags-title" className="grid gap-3">
        <h2 id="reviewed-flags-title" className="font-display text-xl font-semibold">
          Recently Reviewed
        </h2>
        {recent.length === 0 ? (
          <p className="text-sm text-muted-foreground">No reviewed flags yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Recently reviewed flags">
            {recent.map((f) => (
              <li key={f.id} className="flex flex-wrap items-center gap-3 rounded-lg border bg-card px-4 py-3 text-sm">
                <Badge variant={f.status === 'approved' ? 'destructive' : 'secondary'}>{f.status === 'approved' ? 'Confirmed' : 'False Positive'}</Badge>
                <FlaggedPersonalityName flag={f} className="font-medium" />
                {f.reviewedAt && (
                  <time className="text-muted-foreground" dateTime={f.reviewedAt}>
                    {formatDateTime(f.reviewedAt)}
                  </time>
                )}
                {f.adminNotes && <span className="basis-full [overflow-wrap:anywhere] text-muted-foreground">{f.adminNotes}</span>}
                {f.status === 'approved' && f.personalityIsPublic && f.personalityId && !f.personalityDeleted && (
                  <RevertPersonalityDialog personality={{ id: f.personalityId, name: f.personalityName }} />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
