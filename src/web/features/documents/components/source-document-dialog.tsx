// The read-only source view (spec: "Source document for {personality}"): what a reference in a
// chat reply opens. Anyone who may see the personality may open it; the server hides private
// documents from all but the owner. The referenced chunk is marked and brought into view.
import { useRef } from 'react';
import { LoaderCircleIcon } from 'lucide-react';
import { referenceName } from '../../../../shared/document-reference';
import { messages } from '../../../../shared/messages';
import { errorMessage } from '../../../lib/api-client';
import { useReturnFocus } from '../../../lib/focus-management';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { useDocumentSource } from '../api/get-document-source';
import { ChunkList } from './chunk-list';

export interface SourceDocumentDialogProps {
  personalityId: string;
  personalityName: string;
  documentId: string;
  /** 0-based, as a reply's documentReferences carry it. */
  chunkIndex: number;
  onClose: () => void;
}

export function SourceDocumentDialog({ personalityId, personalityName, documentId, chunkIndex, onClose }: SourceDocumentDialogProps) {
  const source = useDocumentSource(personalityId, documentId, chunkIndex);
  const content = useRef<HTMLDivElement>(null);
  const name = source.data?.personality.name ?? personalityName;
  const view = source.data;
  // Opened through the URL from a reply's reference (no Radix trigger): focus goes back to it on close.
  const returnFocus = useReturnFocus(true);

  let body;
  if (source.isPending) {
    body = (
      <p role="status" className="flex items-center gap-2 py-4 text-sm text-muted-foreground">
        <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
        Loading...
      </p>
    );
  } else if (source.isError || !view) {
    body = (
      <Alert variant="destructive">
        <AlertDescription>{errorMessage(source.error, messages.documents.chunkUnavailable)}</AlertDescription>
      </Alert>
    );
  } else if (view.state === 'not_processed') {
    body = (
      <Alert role="status">
        <AlertDescription>{view.message ?? messages.documents.notProcessed}</AlertDescription>
      </Alert>
    );
  } else {
    const first = view.offset + 1;
    const last = view.offset + view.chunks.length;
    body = (
      <>
        {view.message && (
          <Alert variant="destructive">
            <AlertDescription>{view.message}</AlertDescription>
          </Alert>
        )}
        {view.chunks.length < view.document.chunkCount && (
          <p className="text-xs text-muted-foreground">
            Showing chunks {first}–{last} of {view.document.chunkCount}
          </p>
        )}
        <ChunkList
          chunks={view.chunks}
          label={`Chunks of ${view.document.fileName}`}
          referencedIndex={view.referencedAvailable ? view.referencedChunkIndex : null}
        />
      </>
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        ref={content}
        // The header and Close stay put; only the chunks scroll (and scrolling into view moves them).
        className="flex flex-col sm:max-w-2xl"
        showCloseButton={false} // its footer has Close; two buttons named "Close" would be ambiguous
        // Focus the dialog itself, not its first button: focusing a button would scroll the
        // referenced chunk back out of view. The chunk list then moves focus to that chunk.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          content.current?.focus({ preventScroll: true });
        }}
        onCloseAutoFocus={returnFocus}
      >
        <DialogHeader className="shrink-0">
          <DialogTitle className="[overflow-wrap:anywhere]">{name ? messages.documents.sourceTitle(name) : 'Source document'}</DialogTitle>
          <DialogDescription className="[overflow-wrap:anywhere]">
            {view ? referenceName(view.document.fileName, chunkIndex) : 'The passage a reply drew on.'}
          </DialogDescription>
        </DialogHeader>
        <div className="-mx-1 grid min-h-0 flex-1 content-start gap-3 overflow-y-auto px-1 py-1">{body}</div>
        <DialogFooter className="shrink-0">
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
