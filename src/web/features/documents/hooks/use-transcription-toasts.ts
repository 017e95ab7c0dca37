// Says when an audio document this page watched being transcribed is done: a toast when its
// transcript is ready, an error toast with the reason when it failed (the row keeps a Retry).
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../../shared/messages';
import type { DocumentDto } from '../../../../shared/schemas/documents';

export const isAudioDocument = (doc: Pick<DocumentDto, 'mimeType'>) => doc.mimeType?.startsWith('audio/') ?? false;

export function useTranscriptionToasts(documents: DocumentDto[] | undefined) {
  // Audio documents seen processing, by id: only a change seen here is announced.
  const processing = useRef(new Set<string>());
  useEffect(() => {
    for (const doc of documents ?? []) {
      if (!isAudioDocument(doc)) continue;
      if (doc.status === 'processing') {
        processing.current.add(doc.id);
        continue;
      }
      if (!processing.current.delete(doc.id)) continue;
      if (doc.status === 'ready') toast.success(messages.documents.transcribed(doc.fileName));
      else if (doc.status === 'failed') toast.error(messages.documents.processingFailed, { description: doc.error ?? undefined });
    }
  }, [documents]);
}
