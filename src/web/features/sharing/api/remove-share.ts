import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { sharingKeys } from './sharing-keys';

export interface RemoveShareVariables {
  personalityId: string;
  shareId: string;
}

/** Stops sharing with one person; their access ends at once on the server. */
export async function removeShare({ personalityId, shareId }: RemoveShareVariables) {
  await unwrap(api.api.personalities[':id'].shares[':shareId'].$delete({ param: { id: personalityId, shareId } }));
}

export function useRemoveShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeShare,
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: sharingKeys.shares(personalityId) }),
  });
}
