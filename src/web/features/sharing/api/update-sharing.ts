import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sharingKeys } from './sharing-keys';
import type { SharingType } from '../../../../shared/limits';
import { api, unwrap } from '../../../lib/api-client';

export interface UpdateSharingVariables {
  personalityId: string;
  sharingType: SharingType;
}

/** Sets the level; the server refuses public (403) unless the caller is an admin. */
export async function updateSharing({ personalityId, sharingType }: UpdateSharingVariables) {
  const res = api.api.personalities[':id'].sharing.$put({ param: { id: personalityId }, json: { sharingType } });
  return (await unwrap(res)).personality;
}

export function useUpdateSharing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSharing,
    // Choosing private or shared withdraws a pending public request (the server's rule): the
    // "Public Request Pending" badge must not stay beside the new level.
    onSuccess: (_data, { personalityId }) => queryClient.invalidateQueries({ queryKey: sharingKeys.publicRequest(personalityId) }),
  });
}
