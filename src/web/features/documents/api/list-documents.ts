import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { api, unwrap } from '../../../lib/api-client';
import { documentsKeys } from './documents-keys';

/** Newest first, whatever order an answer or a stream event arrived in. */
export function newestFirst(documents: DocumentDto[]): DocumentDto[] {
  return [...documents].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

export const listDocumentsQueryOptions = (personalityId: string) =>
  queryOptions({
    queryKey: documentsKeys.list(personalityId),
    queryFn: async () =>
      newestFirst((await unwrap(api.api.personalities[':id'].documents.$get({ param: { id: personalityId } }))).documents),
  });

/**
 * The owner's documents. `pollMs` is the fallback for live updates: set while the event stream is
 * not connected, false while it is (the stream then writes into this same cache entry).
 */
export function useListDocuments(personalityId: string, pollMs: number | false) {
  return useQuery({ ...listDocumentsQueryOptions(personalityId), refetchInterval: pollMs });
}
