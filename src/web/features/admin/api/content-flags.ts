import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';
import { invalidateAfterAdminChange } from './invalidate-after-admin-change';

// Pages of pending flags, newest first; "Show older flags" asks for the next. Each answer also
// carries the number pending and the 10 most recently reviewed: the first page's are shown. After
// a review every page shown is fetched again from the first, so none repeats or goes missing.
export const contentFlagsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: adminKeys.contentFlags(),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => unwrap(api.api.admin['content-flags'].$get({ query: pageParam ? { before: pageParam } : {} })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** Pending flags a page at a time, how many are pending, and the 10 most recently reviewed. */
export function useContentFlags() {
  return useInfiniteQuery(contentFlagsQueryOptions());
}

export interface ReviewFlagVariables {
  flagId: string;
  status: 'approved' | 'rejected';
  adminNotes: string;
}

export function useReviewFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ flagId, status, adminNotes }: ReviewFlagVariables) =>
      (await unwrap(api.api.admin['content-flags'][':id'].review.$post({ param: { id: flagId }, json: { status, adminNotes } }))).flag,
    onSettled: () => invalidateAfterAdminChange(queryClient),
  });
}
