import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { conversationKeys } from './conversation-keys';

export const systemOptimizationsQueryOptions = () =>
  queryOptions({
    queryKey: conversationKeys.systemOptimizations(),
    queryFn: () => unwrap(api.api.admin['system-optimizations'].$get()),
    // Figures move with every chat anywhere on the server; the card follows them.
    refetchInterval: 30_000,
  });

/** The context cache's measured effect (admins only: the server answers 403 to anyone else). */
export function useSystemOptimizations(enabled: boolean) {
  return useQuery({ ...systemOptimizationsQueryOptions(), enabled });
}
