import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { useViewer } from '../../auth/hooks/use-viewer';
import { documentsKeys } from './documents-keys';

// The read-only source view around a referenced chunk, for anyone who may see the personality
// (a private document answers 404 to everyone but its owner).
export const documentSourceQueryOptions = (
  personalityId: string,
  documentId: string,
  chunkIndex: number,
  viewerId: string | null,
) =>
  queryOptions({
    queryKey: documentsKeys.source(personalityId, documentId, chunkIndex, viewerId),
    queryFn: () =>
      unwrap(
        api.api.personalities[':id'].documents[':documentId'].source.$get({
          param: { id: personalityId, documentId },
          query: { chunk: String(chunkIndex) },
        }),
      ),
  });

export function useDocumentSource(personalityId: string, documentId: string, chunkIndex: number) {
  const viewer = useViewer();
  return useQuery({
    ...documentSourceQueryOptions(personalityId, documentId, chunkIndex, viewer.user?.id ?? null),
    enabled: !viewer.isLoading,
  });
}
