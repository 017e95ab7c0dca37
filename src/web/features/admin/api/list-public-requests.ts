import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

// Pages of pending requests, newest first; "Show older requests" asks for the next. Each answer
// also carries the number pending and the 5 latest reviews: the first page's are shown. After a
// decision every page shown is fetched again from the first, so none repeats or goes missing.
export const publicRequestsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: adminKeys.publicRequests(),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => unwrap(api.api.admin['public-requests'].$get({ query: pageParam ? { before: pageParam } : {} })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** Pending requests a page at a time, how many are pending, and the 5 latest reviews. */
export function usePublicRequests() {
  return useInfiniteQuery(publicRequestsQueryOptions());
}
