import type { QueryClient } from '@tanstack/react-query';
import { adminKeys } from './admin-keys';

/**
 * After an admin changes what is public, the dashboard refetches now, and every other cached
 * query (the library among them; features do not share keys) is marked stale so it refetches
 * when next shown, as the spec's "the page reloads" intends.
 */
export async function invalidateAfterAdminChange(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: adminKeys.all }),
    queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== adminKeys.all[0], refetchType: 'none' }),
  ]);
}
