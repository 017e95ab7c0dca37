import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { ApiError, api, unwrap } from '../../../lib/api-client';
import { documentsKeys } from './documents-keys';

/** Newest first, whatever order an answer or a stream event arrived in. */
export function newestFirst(documents: DocumentDto[]): DocumentDto[] {
  return [...documents].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/**
 * Each document as the later of two answers (by updatedAt, which every change of state moves; on a
 * tie, the answer being written). The list is written by fetches and by the live event stream: a
 * fetch sent before a job failed but answered after the stream said so would otherwise put the
 * document back to "Processing", and the stream, with nothing new to say, would never correct it.
 */
export function keepLatest(previous: unknown, next: unknown): unknown {
  if (!Array.isArray(previous) || !Array.isArray(next)) return next;
  const before = new Map((previous as DocumentDto[]).map((d) => [d.id, d]));
  return (next as DocumentDto[]).map((d) => {
    const old = before.get(d.id);
    return old && old.updatedAt > d.updatedAt ? old : d;
  });
}

export const listDocumentsQueryOptions = (personalityId: string) =>
  queryOptions({
    queryKey: documentsKeys.list(personalityId),
    queryFn: async () =>
      newestFirst((await unwrap(api.api.personalities[':id'].documents.$get({ param: { id: personalityId } }))).documents),
    structuralSharing: keepLatest,
  });

/**
 * Whether the last fetch was refused for who is asking (signed out, perhaps in another tab, no
 * longer the owner, or the personality deleted or unshared meanwhile): polling would repeat the
 * refusal every few seconds for as long as the list is open (and each 404 makes the library read
 * itself again). A network failure or a server error keeps polling: those clear up by themselves.
 */
export function refusedForViewer(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404);
}

/**
 * The owner's documents. `pollMs` is the fallback for live updates: set while the event stream is
 * not connected, false while it is (the stream then writes into this same cache entry), and
 * stopped after a 401, 403 or 404 (a new sign-in starts the screens, and this list, afresh).
 */
export function useListDocuments(personalityId: string, pollMs: number | false) {
  return useQuery({
    ...listDocumentsQueryOptions(personalityId),
    refetchInterval: (query) => (refusedForViewer(query.state.error) ? false : pollMs),
  });
}
