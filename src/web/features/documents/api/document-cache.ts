import type { QueryClient } from '@tanstack/react-query';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { documentsKeys } from './documents-keys';

/** Puts a document the server just answered with into the cached list, so the row changes at once. */
export function replaceCachedDocument(queryClient: QueryClient, document: DocumentDto) {
  queryClient.setQueryData<DocumentDto[]>(documentsKeys.list(document.personalityId), (list) =>
    list?.map((d) => (d.id === document.id ? document : d)),
  );
}

/** Puts a document the server just created at the top of the cached list (once, if the list is loaded). */
export function addCachedDocument(queryClient: QueryClient, document: DocumentDto) {
  queryClient.setQueryData<DocumentDto[]>(documentsKeys.list(document.personalityId), (list) =>
    list ? [document, ...list.filter((d) => d.id !== document.id)] : list,
  );
}
