// Says when an audio document this page watched being transcribed is done: a toast when its
// transcript is ready, an error toast with the reason when it failed (the row keeps a Retry).
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../../shared/messages';
import type { DocumentDto } from '../../../../shared/schemas/documents';

export const isAudioDocument = (doc: Pick<DocumentDto, 'mimeType'>) => doc.mimeType?.startsWith('audio/') ?? false;

/**
 * Audio documents uploaded from this tab and not yet announced. Their end is announced even when
 * the job finished before the list was read again (the page never saw them unsettled).
 */
const uploadedHere = new Set<string>();
export const watchTranscription = (documentId: string) => void uploadedHere.add(documentId);

export function useTranscriptionToasts(documents: DocumentDto[] | undefined) {
  // Audio documents seen before they settled (queued or processing), by id: only a change seen
  // here, or of an upload from this tab, is announced.
  const processing = useRef(new Set<string>());
  useEffect(() => {
    for (const doc of documents ?? []) {
      if (!isAudioDocument(doc)) continue;
      if (doc.status !== 'ready' && doc.status !== 'failed') {
        processing.current.add(doc.id);
        continue;
      }
      const seen = processing.current.delete(doc.id);
      if (!uploadedHere.delete(doc.id) && !seen) continue;
      if (doc.status === 'ready') toast.success(messages.documents.transcribed(doc.fileName));
      else if (doc.status === 'failed') toast.error(messages.documents.processingFailed, { description: doc.error ?? undefined });
    }
  }, [documents]);
}
