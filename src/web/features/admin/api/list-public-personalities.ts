import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const publicPersonalitiesQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.publicPersonalities(),
    queryFn: async () => (await unwrap(api.api.admin.personalities.public.$get())).personalities,
  });

/** Public personalities, most recently updated first (Manage Personalities). */
export function usePublicPersonalities() {
  return useQuery(publicPersonalitiesQueryOptions());
}
