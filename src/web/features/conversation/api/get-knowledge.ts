import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { conversationKeys } from './conversation-keys';

const PROCESSING_REFRESH_MS = 5_000;

export const knowledgeQueryOptions = (personalityId: string, viewerId: string | null) =>
  queryOptions({
    queryKey: conversationKeys.knowledge(personalityId, viewerId),
    queryFn: () => unwrap(api.api.personalities[':id'].knowledge.$get({ param: { id: personalityId } })),
    // While documents are being processed the panel follows them until they are ready.
    refetchInterval: (query) => ((query.state.data?.processing ?? 0) > 0 ? PROCESSING_REFRESH_MS : false),
  });

/** What this viewer's conversations may draw on: document and passage counts, and readiness. */
export function useKnowledge(personalityId: string, viewerId: string | null) {
  return useQuery(knowledgeQueryOptions(personalityId, viewerId));
}
