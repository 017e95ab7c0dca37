import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { conversationKeys } from './conversation-keys';

export const startersQueryOptions = (personalityId: string, viewerId: string | null) =>
  queryOptions({
    queryKey: conversationKeys.starters(personalityId, viewerId),
    queryFn: () => unwrap(api.api.personalities[':id'].starters.$get({ param: { id: personalityId } })),
    // Derived from the personality and its documents; they change rarely during a chat.
    staleTime: 5 * 60_000,
  });

/** Four conversation starters, the greeting a new conversation opens with, and who answers. */
export function useStarters(personalityId: string, viewerId: string | null) {
  return useQuery(startersQueryOptions(personalityId, viewerId));
}
