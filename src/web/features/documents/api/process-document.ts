import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { replaceCachedDocument } from './document-cache';
import { documentsKeys } from './documents-keys';

export interface DocumentVariables {
  personalityId: string;
  documentId: string;
}

/** Runs extraction, chunking and embedding again; 409 while a job for it is queued or running. */
export async function processDocument({ personalityId, documentId }: DocumentVariables) {
  const res = api.api.personalities[':id'].documents[':documentId'].process.$post({ param: { id: personalityId, documentId } });
  return (await unwrap(res)).document;
}

export function useProcessDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: processDocument,
    onSuccess: (document) => replaceCachedDocument(queryClient, document),
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: documentsKeys.list(personalityId) }),
  });
}
