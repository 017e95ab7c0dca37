import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const publicRequestsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.publicRequests(),
    queryFn: () => unwrap(api.api.admin['public-requests'].$get()),
  });

/** Pending requests and the 5 latest reviews. */
export function usePublicRequests() {
  return useQuery(publicRequestsQueryOptions());
}
