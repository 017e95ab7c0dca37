import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';
import { invalidateAfterAdminChange } from './invalidate-after-admin-change';

export const contentFlagsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.contentFlags(),
    queryFn: () => unwrap(api.api.admin['content-flags'].$get()),
  });

/** Pending flags (newest first) and the 10 most recently reviewed. */
export function useContentFlags() {
  return useQuery(contentFlagsQueryOptions());
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
