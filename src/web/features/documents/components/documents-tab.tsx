// The Documents tab: upload (files, articles by URL, audio to transcribe, a recording, a voice sample to clone) above the document list, or one
// document's chunk viewer in their place. The list stays live (event stream, else polling) the
// whole time the tab is open, so the viewer's document is current too.
import { useEffect, useRef, useState } from 'react';
import { limits } from '../../../../shared/limits';
import { useListDocuments } from '../api/list-documents';
import { useDocumentEvents } from '../hooks/use-document-events';
import { ChunkViewer } from './chunk-viewer';
import { DocumentList } from './document-list';
import { DocumentUpload } from './document-upload';
import { UrlImportForm } from './url-import-form';
import { AudioUploadForm } from './audio-upload-form';
import { RecordingWidget } from './recording-widget';
import { VoiceCloneForm } from './voice-clone-form';
import { useTranscriptionToasts } from '../hooks/use-transcription-toasts';

export function DocumentsTab({ personalityId }: { personalityId: string }) {
  const [viewingId, setViewingId] = useState<string | null>(null);
  const live = useDocumentEvents(personalityId, true);
  const list = useListDocuments(personalityId, live ? false : limits.documentPollMs);
  // A document deleted meanwhile (here or in another tab) closes its viewer.
  useTranscriptionToasts(list.data);
  const viewing = viewingId ? list.data?.find((d) => d.id === viewingId) : undefined;

  // "Back to Documents": focus returns to the "View chunks of ..." button the viewer was opened
  // from (the viewer, and the button that had focus, are gone).
  const root = useRef<HTMLDivElement>(null);
  const [returnTo, setReturnTo] = useState<string | null>(null);
  useEffect(() => {
    if (viewing || !returnTo) return;
    const button = Array.from(root.current?.querySelectorAll<HTMLElement>('[data-open-document]') ?? []).find(
      (el) => el.dataset.openDocument === returnTo,
    );
    button?.focus();
    setReturnTo(null);
  }, [viewing, returnTo]);

  if (viewing) {
    return (
      <ChunkViewer
        personalityId={personalityId}
        document={viewing}
        onBack={() => {
          setReturnTo(viewing.id);
          setViewingId(null);
        }}
      />
    );
  }
  return (
    <div ref={root} className="grid min-w-0 gap-6 pt-1">
      <div className="grid gap-4 md:grid-cols-[3fr_2fr]">
        <DocumentUpload personalityId={personalityId} />
        <UrlImportForm personalityId={personalityId} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <AudioUploadForm personalityId={personalityId} />
        <RecordingWidget personalityId={personalityId} />
      </div>
      <VoiceCloneForm personalityId={personalityId} />
      <DocumentList
        personalityId={personalityId}
        documents={list.data}
        isPending={list.isPending}
        error={list.error}
        isRetrying={list.isFetching}
        onRetry={() => void list.refetch()}
        onOpen={(document) => setViewingId(document.id)}
      />
    </div>
  );
}
