import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { personalityKeys } from './personality-keys';

/** The recipient removes a personality shared with them from their library. */
export async function leaveShare(id: string) {
  await unwrap(api.api.personalities[':id']['my-share'].$delete({ param: { id } }));
}

export function useLeaveShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveShare,
    onSettled: () => queryClient.invalidateQueries({ queryKey: personalityKeys.lists() }),
  });
}
