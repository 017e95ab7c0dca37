import { useMemo } from 'react';
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { CONVERSATION_PAGE_SIZE, type ConversationSummary } from '../../../../shared/schemas/conversations';
import { conversationKeys } from './conversation-keys';

interface ConversationPage {
  conversations: ConversationSummary[];
  hasMore: boolean;
}

// Pages of the viewer's saved conversations, most recently active first, 50 at a time by offset;
// "Show older conversations" asks for the next. The key is the list's own, so the invalidations
// after a rename, a delete or an exchange refetch every page shown, from the first.
export const listConversationsQueryOptions = (personalityId: string, viewerId: string) =>
  infiniteQueryOptions({
    queryKey: conversationKeys.list(personalityId, viewerId),
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<ConversationPage> =>
      unwrap(
        api.api.personalities[':id'].conversations.$get({
          param: { id: personalityId },
          query: { limit: String(CONVERSATION_PAGE_SIZE), offset: String(pageParam) },
        }),
      ),
    // The offset counts rows received, not distinct ones: the server's pages are positions in its order.
    getNextPageParam: (last, pages) => (last.hasMore ? pages.reduce((rows, page) => rows + page.conversations.length, 0) : undefined),
  });

/**
 * The pages as one list. A conversation written in between two page reads moves to the top, so
 * a later page can hold one already shown (and the one it pushed down): each id is kept once, at
 * its first (most recent) place.
 */
export function flattenConversationPages(data: InfiniteData<ConversationPage> | undefined): ConversationSummary[] | undefined {
  if (!data) return undefined;
  const seen = new Set<string>();
  const list: ConversationSummary[] = [];
  for (const page of data.pages) {
    for (const conversation of page.conversations) {
      if (seen.has(conversation.id)) continue;
      seen.add(conversation.id);
      list.push(conversation);
    }
  }
  return list;
}

/** The signed-in viewer's saved conversations with this personality, most recently active first, a page at a time. */
export function useListConversations(personalityId: string, viewerId: string | null) {
  const query = useInfiniteQuery({ ...listConversationsQueryOptions(personalityId, viewerId ?? ''), enabled: viewerId !== null });
  // The same array until a page changes: the picker tells an arrived page by a new list.
  const conversations = useMemo(() => flattenConversationPages(query.data), [query.data]);
  return {
    conversations,
    isPending: query.isPending,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
