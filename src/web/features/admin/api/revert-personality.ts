import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { invalidateAfterAdminChange } from './invalidate-after-admin-change';

/** Public -> private (sharing_type private, is_public false). */
export async function revertPersonality(id: string) {
  return (await unwrap(api.api.admin.personalities[':id'].revert.$post({ param: { id } }))).personality;
}

export function useRevertPersonality() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revertPersonality,
    onSettled: () => invalidateAfterAdminChange(queryClient),
  });
}
