import { useMutation } from '@tanstack/react-query';
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
  return useMutation({ mutationFn: updateSharing });
}
