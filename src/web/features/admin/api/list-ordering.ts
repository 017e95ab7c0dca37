import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const orderingQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.ordering(),
    queryFn: async () => (await unwrap(api.api.admin.personalities.ordering.$get())).personalities,
    // The tab edits a local copy; a background refetch must not overwrite unsaved changes.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** Public personalities in library order (display order, nulls last, then name). */
export function useOrdering() {
  return useQuery(orderingQueryOptions());
}
