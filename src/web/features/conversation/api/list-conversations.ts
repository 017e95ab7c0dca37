import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { conversationKeys } from './conversation-keys';

export const listConversationsQueryOptions = (personalityId: string, viewerId: string) =>
  queryOptions({
    queryKey: conversationKeys.list(personalityId, viewerId),
    queryFn: async () =>
      (await unwrap(api.api.personalities[':id'].conversations.$get({ param: { id: personalityId } }))).conversations,
  });

/** The signed-in viewer's saved conversations with this personality, most recently active first. */
export function useListConversations(personalityId: string, viewerId: string | null) {
  return useQuery({ ...listConversationsQueryOptions(personalityId, viewerId ?? ''), enabled: viewerId !== null });
}
