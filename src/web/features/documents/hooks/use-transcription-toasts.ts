// Says when an audio document this page watched being transcribed is done: a toast when its
// transcript is ready, an error toast with the reason when it failed (the row keeps a Retry).
// The outcome takes the place of the upload's "Transcribing…" toast (transcriptionToastId) instead
// of stacking under it, and an outcome is announced once.
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
/** Documents whose outcome this tab has announced (the upload's answer can arrive after it). */
const announced = new Set<string>();

export const transcriptionToastId = (documentId: string) => `transcription-${documentId}`;
export const transcriptionAnnounced = (documentId: string) => announced.has(documentId);
export const watchTranscription = (documentId: string) => {
  if (!announced.has(documentId)) uploadedHere.add(documentId);
};

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
      announced.add(doc.id);
      // A toast of its own, not an update of the upload's: an update that lands while that toast
      // is closing (its few seconds are up) closes with it, and the outcome is never seen.
      toast.dismiss(transcriptionToastId(doc.id));
      if (doc.status === 'ready') toast.success(messages.documents.transcribed(doc.fileName));
      else toast.error(messages.documents.processingFailed, { description: doc.error ?? undefined });
    }
  }, [documents]);
}
