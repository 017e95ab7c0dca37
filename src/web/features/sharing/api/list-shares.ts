import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { sharingKeys } from './sharing-keys';

export const listSharesQueryOptions = (personalityId: string) =>
  queryOptions({
    queryKey: sharingKeys.shares(personalityId),
    queryFn: async () => (await unwrap(api.api.personalities[':id'].shares.$get({ param: { id: personalityId } }))).shares,
  });

/** The people the personality is shared with (owner only); fetched while the dialog is open. */
export function useListShares(personalityId: string, enabled: boolean) {
  return useQuery({ ...listSharesQueryOptions(personalityId), enabled });
}
