import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { conversationKeys } from './conversation-keys';

export const conversationQueryOptions = (conversationId: string, viewerId: string) =>
  queryOptions({
    queryKey: conversationKeys.detail(conversationId, viewerId),
    queryFn: async () => (await unwrap(api.api.conversations[':id'].$get({ param: { id: conversationId } }))).conversation,
    // Read once when resumed: from then on the open chat holds the messages itself, and a
    // refetch must not replace a reply that is still streaming in.
    staleTime: Infinity,
    gcTime: 0,
  });

/** One saved conversation with its messages, oldest first (the greeting included). */
export function useConversation(conversationId: string, viewerId: string) {
  return useQuery(conversationQueryOptions(conversationId, viewerId));
}
