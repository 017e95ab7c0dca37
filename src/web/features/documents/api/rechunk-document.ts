import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { replaceCachedDocument } from './document-cache';
import { documentsKeys } from './documents-keys';
import type { DocumentVariables } from './process-document';

/** Chunks (and embeds) the already extracted text again; 400 when there is no text yet. */
export async function rechunkDocument({ personalityId, documentId }: DocumentVariables) {
  const res = api.api.personalities[':id'].documents[':documentId'].rechunk.$post({ param: { id: personalityId, documentId } });
  return (await unwrap(res)).document;
}

export function useRechunkDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rechunkDocument,
    onSuccess: (document) => replaceCachedDocument(queryClient, document),
    onSettled: (_data, _err, { personalityId, documentId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: documentsKeys.list(personalityId) }),
        queryClient.invalidateQueries({ queryKey: documentsKeys.chunks(personalityId, documentId) }),
      ]),
  });
}
