// The owner's chunk viewer: one document's chunks in order, a page at a time, with "Back to
// Documents". It follows the live list: when the document is processed again, its chunks reload.
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeftIcon, LoaderCircleIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { errorMessage } from '../../../lib/api-client';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { documentsKeys } from '../api/documents-keys';
import { useListDocumentChunks } from '../api/list-document-chunks';
import { ChunkList } from './chunk-list';
import { DocumentStatusBadge, DocumentStatusDetail } from './document-status';

interface Props {
  personalityId: string;
  document: DocumentDto;
  onBack: () => void;
}

export function ChunkViewer({ personalityId, document: doc, onBack }: Props) {
  const chunks = useListDocumentChunks(personalityId, doc.id);
  const queryClient = useQueryClient();
  const back = useRef<HTMLButtonElement>(null);

  useEffect(() => back.current?.focus(), []);

  // Reload when a job changed the chunks (not on every progress tick).
  const version = `${doc.status}:${doc.chunkCount}`;
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    void queryClient.invalidateQueries({ queryKey: documentsKeys.chunks(personalityId, doc.id) });
  }, [doc.id, personalityId, queryClient, version]);

  const loaded = chunks.data?.pages.flatMap((page) => page.chunks) ?? [];

  let body;
  if (chunks.isPending) {
    body = (
      <p role="status" className="text-sm text-muted-foreground">
        Loading...
      </p>
    );
  } else if (chunks.isError) {
    body = (
      <Alert variant="destructive">
        <AlertDescription>{errorMessage(chunks.error, messages.documents.loadFailed)}</AlertDescription>
      </Alert>
    );
  } else if (loaded.length === 0) {
    body = (
      <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
        This document has no chunks yet. Use "Process" to extract and chunk it.
      </p>
    );
  } else {
    body = (
      <>
        <ChunkList chunks={loaded} label={`Chunks of ${doc.fileName}`} />
        {chunks.hasNextPage && (
          <Button
            variant="outline"
            className="justify-self-center"
            onClick={() => void chunks.fetchNextPage()}
            disabled={chunks.isFetchingNextPage}
          >
            {chunks.isFetchingNextPage && <LoaderCircleIcon className="animate-spin" aria-hidden />}
            Load more
          </Button>
        )}
      </>
    );
  }

  return (
    <section aria-label={`Chunks of ${doc.fileName}`} className="grid min-w-0 gap-4 pt-1">
      <Button ref={back} variant="outline" size="sm" className="justify-self-start" onClick={onBack}>
        <ArrowLeftIcon aria-hidden />
        {messages.documents.backToDocuments}
      </Button>
      <div className="grid min-w-0 gap-1.5">
        <div className="flex min-w-0 items-start justify-between gap-2">
          <h3 className="min-w-0 font-medium [overflow-wrap:anywhere]">{doc.fileName}</h3>
          <DocumentStatusBadge document={doc} />
        </div>
        <p className="text-xs text-muted-foreground">
          {doc.chunkCount} {doc.chunkCount === 1 ? 'chunk' : 'chunks'}
        </p>
        <DocumentStatusDetail document={doc} />
      </div>
      {body}
    </section>
  );
}
