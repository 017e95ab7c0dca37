import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { sharingKeys } from './sharing-keys';

export const latestPublicRequestQueryOptions = (personalityId: string) =>
  queryOptions({
    queryKey: sharingKeys.publicRequest(personalityId),
    queryFn: async () =>
      (await unwrap(api.api.personalities[':id']['public-request'].$get({ param: { id: personalityId } }))).request,
  });

/** The owner's latest request to make it public (pending, approved or rejected), or null. */
export function useLatestPublicRequest(personalityId: string, enabled: boolean) {
  return useQuery({ ...latestPublicRequestQueryOptions(personalityId), enabled });
}
