// Public Requests: the pending queue with Approve and Reject, then "Recent Reviews". The heading
// counts every pending request; they come 50 at a time, newest first, with "Show older requests".
import { useRef } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../../shared/messages';
import { ApiError } from '../../../lib/api-client';
import { focusAfterRemoval, focusWhenLost } from '../../../lib/focus-management';
import { usePublicRequests } from '../api/list-public-requests';
import { useReviewPublicRequest } from '../api/review-public-request';
import { AdminEmpty, AdminListSkeleton, AdminLoadError } from './admin-states';
import { PublicRequestCard } from './public-request-card';
import { RecentReviews } from './recent-reviews';
import { ShowOlder } from './show-older';

export function PublicRequestsTab() {
  const requests = usePublicRequests();
  const review = useReviewPublicRequest();
  const pendingList = useRef<HTMLDivElement>(null);

  function decide(requestId: string, decision: 'approve' | 'reject', from: HTMLElement) {
    // The decided card leaves the queue (its buttons are disabled meanwhile): focus goes to the
    // next card's first action, else the previous one's, else the queue's heading.
    const stopWaiting = focusAfterRemoval(from.closest('[role="article"]'), () => document.getElementById('pending-requests-title'));
    const failed = () => {
      stopWaiting();
      focusWhenLost(() => from);
    };
    review.mutate(
      { requestId, decision },
      decision === 'approve'
        ? {
            onSuccess: () => toast.success(messages.approval.approvedTitle, { description: messages.approval.approvedBody }),
            // The server's message covers the deleted personality ("Cannot approve request: ...").
            onError: (err) => {
              failed();
              toast.error(err instanceof ApiError && err.status > 0 ? err.message : messages.approval.approveFailed);
            },
          }
        : {
            onSuccess: () => toast.success(messages.approval.rejectedTitle, { description: messages.approval.rejectedBody }),
            onError: () => {
              failed();
              toast.error(messages.approval.rejectFailed);
            },
          },
    );
  }

  if (requests.isPending) return <AdminListSkeleton label="Loading requests" />;
  if (requests.isError && !requests.data) {
    return <AdminLoadError title="Failed to load requests" error={requests.error} onRetry={() => void requests.refetch()} />;
  }

  // The first page's count and reviews: it is fetched first, so they are the newest.
  const { pendingTotal, recent } = requests.data.pages[0]!;
  const pending = requests.data.pages.flatMap((page) => page.pending);
  return (
    <div className="grid gap-8">
      <section aria-labelledby="pending-requests-title" className="grid gap-3">
        <h2 id="pending-requests-title" tabIndex={-1} className="font-display text-xl font-semibold outline-none">
          Requests to review ({pendingTotal})
        </h2>
        {pending.length === 0 ? (
          <AdminEmpty text={messages.admin.noPendingRequests} hint="New requests to make a personality public appear here." />
        ) : (
          <div ref={pendingList} className="grid grid-cols-[minmax(0,1fr)] gap-4">
            {pending.map((r) => (
              <PublicRequestCard
                key={r.id}
                request={r}
                busy={review.isPending && review.variables?.requestId === r.id ? review.variables.decision : null}
                onDecide={(decision, from) => decide(r.id, decision, from)}
              />
            ))}
          </div>
        )}
        {requests.hasNextPage && (
          <ShowOlder
            shown={pending.length}
            total={pendingTotal}
            label="Show older requests"
            failedText="Failed to load older requests"
            loading={requests.isFetchingNextPage}
            onShowOlder={() => requests.fetchNextPage()}
            list={() => pendingList.current}
          />
        )}
      </section>
      <RecentReviews reviews={recent} />
    </div>
  );
}
