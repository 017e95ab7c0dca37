import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const adminSummaryQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.summary(),
    queryFn: () => unwrap(api.api.admin.summary.$get()),
  });

/** Counts for the summary cards: public personalities and pending requests. */
export function useAdminSummary() {
  return useQuery(adminSummaryQueryOptions());
}
