import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { sharingKeys } from './sharing-keys';

export interface CreatePublicRequestVariables {
  personalityId: string;
  /** Optional note to the admin; the server trims it and stores blank as none. */
  message: string;
}

export async function createPublicRequest({ personalityId, message }: CreatePublicRequestVariables) {
  const res = api.api.personalities[':id']['public-requests'].$post({ param: { id: personalityId }, json: { message } });
  return (await unwrap(res)).request;
}

export function useCreatePublicRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPublicRequest,
    // Also after a 409: another tab may have submitted one, and the block should say so.
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: sharingKeys.publicRequest(personalityId) }),
  });
}
