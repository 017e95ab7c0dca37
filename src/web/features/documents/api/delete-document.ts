import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { api, unwrap } from '../../../lib/api-client';
import { documentsKeys } from './documents-keys';
import type { DocumentVariables } from './process-document';

/** Deletes the document with its stored file, chunks and embeddings. */
export async function deleteDocument({ personalityId, documentId }: DocumentVariables) {
  await unwrap(api.api.personalities[':id'].documents[':documentId'].$delete({ param: { id: personalityId, documentId } }));
}

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSuccess: (_data, { personalityId, documentId }) =>
      queryClient.setQueryData<DocumentDto[]>(documentsKeys.list(personalityId), (list) =>
        list?.filter((d) => d.id !== documentId),
      ),
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: documentsKeys.list(personalityId) }),
  });
}
