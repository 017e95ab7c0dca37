import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { replaceCachedDocument } from './document-cache';
import { documentsKeys } from './documents-keys';

export interface SetDocumentPrivacyVariables {
  personalityId: string;
  documentId: string;
  isPrivate: boolean;
}

/** A private document is used only in the owner's own conversations and shown to no one else. */
export async function setDocumentPrivacy({ personalityId, documentId, isPrivate }: SetDocumentPrivacyVariables) {
  const res = api.api.personalities[':id'].documents[':documentId'].$patch({
    param: { id: personalityId, documentId },
    json: { isPrivate },
  });
  return (await unwrap(res)).document;
}

export function useSetDocumentPrivacy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDocumentPrivacy,
    onSuccess: (document) => replaceCachedDocument(queryClient, document),
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: documentsKeys.list(personalityId) }),
  });
}
