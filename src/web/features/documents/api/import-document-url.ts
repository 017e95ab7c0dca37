import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { documentsKeys } from './documents-keys';

export interface ImportDocumentUrlVariables {
  personalityId: string;
  url: string;
}

/** The server fetches the page (refusing private addresses), extracts its article and queues it. */
export async function importDocumentUrl({ personalityId, url }: ImportDocumentUrlVariables) {
  const res = api.api.personalities[':id'].documents.url.$post({ param: { id: personalityId }, json: { url } });
  return (await unwrap(res)).document;
}

export function useImportDocumentUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importDocumentUrl,
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: documentsKeys.list(personalityId) }),
  });
}
