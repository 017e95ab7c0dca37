import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { useViewer } from '../../auth/hooks/use-viewer';
import { documentsKeys } from './documents-keys';

export interface DocumentsAccess {
  name: string;
  isOwner: boolean;
}

// The server's own answer decides whether the modal manages documents: a stale card (ownership
// never changes, but the personality may be gone) or a hand-made ?docs= link must not open it.
export const documentsAccessQueryOptions = (personalityId: string, viewerId: string | null) =>
  queryOptions({
    queryKey: documentsKeys.access(personalityId, viewerId),
    queryFn: async (): Promise<DocumentsAccess> => {
      const { personality } = await unwrap(api.api.personalities[':id'].$get({ param: { id: personalityId } }));
      return { name: personality.name, isOwner: personality.isOwner };
    },
    staleTime: 0,
  });

/** Whether the viewer owns the personality; waits until we know who the viewer is. */
export function useDocumentsAccess(personalityId: string, enabled = true) {
  const viewer = useViewer();
  return useQuery({
    ...documentsAccessQueryOptions(personalityId, viewer.user?.id ?? null),
    enabled: enabled && !viewer.isLoading,
  });
}
