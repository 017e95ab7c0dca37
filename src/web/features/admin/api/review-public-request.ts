import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { invalidateAfterAdminChange } from './invalidate-after-admin-change';

export interface ReviewVariables {
  requestId: string;
  decision: 'approve' | 'reject';
}

/**
 * Approve (the server checks the personality still exists, then makes it public, atomically) or
 * reject. A deleted personality's approval is refused with the spec's message (409).
 */
export async function reviewPublicRequest({ requestId, decision }: ReviewVariables) {
  const route = api.api.admin['public-requests'][':id'];
  const res = decision === 'approve' ? route.approve.$post({ param: { id: requestId } }) : route.reject.$post({ param: { id: requestId } });
  return (await unwrap(res)).request;
}

export function useReviewPublicRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewPublicRequest,
    onSettled: () => invalidateAfterAdminChange(queryClient),
  });
}
