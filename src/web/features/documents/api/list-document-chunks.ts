import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { documentsKeys } from './documents-keys';

const PAGE = 100;

// Pages of the owner's chunk viewer, in chunk order; "Load more" asks for the next page.
export const listDocumentChunksQueryOptions = (personalityId: string, documentId: string) =>
  infiniteQueryOptions({
    queryKey: documentsKeys.chunks(personalityId, documentId),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.api.personalities[':id'].documents[':documentId'].chunks.$get({
          param: { id: personalityId, documentId },
          query: { offset: String(pageParam), limit: String(PAGE) },
        }),
      ),
    getNextPageParam: (last) => {
      const next = last.offset + last.chunks.length;
      return last.chunks.length > 0 && next < last.total ? next : undefined;
    },
  });

export function useListDocumentChunks(personalityId: string, documentId: string) {
  return useInfiniteQuery(listDocumentChunksQueryOptions(personalityId, documentId));
}
