import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { sharingKeys } from './sharing-keys';

export interface AddShareVariables {
  personalityId: string;
  email: string;
}

/** Shares with a registered user; answers the new share and the level afterwards. */
export async function addShare({ personalityId, email }: AddShareVariables) {
  return unwrap(api.api.personalities[':id'].shares.$post({ param: { id: personalityId }, json: { email } }));
}

export function useAddShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addShare,
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: sharingKeys.shares(personalityId) }),
  });
}
