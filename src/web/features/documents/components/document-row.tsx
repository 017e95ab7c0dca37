// One document: its name (opens the chunk viewer), status and details, and the owner's actions:
// Process (run it all again), Rechunk (split the extracted text again), Private, Delete.
// A document moderation holds private says so beside its Private switch: otherwise the switch
// just turns on after upload and the owner is not told why, nor that it cannot be turned off.
import { useId } from 'react';
import { toast } from 'sonner';
import { formatDateTime } from '../../../lib/date-format';
import { AudioLinesIcon, FileTextIcon, GlobeIcon, LoaderCircleIcon, RefreshCwIcon, ScissorsIcon, ShieldAlertIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { api, errorMessage } from '../../../lib/api-client';
import { isAudioDocument } from '../hooks/use-transcription-toasts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import { useProcessDocument } from '../api/process-document';
import { useRechunkDocument } from '../api/rechunk-document';
import { useSetDocumentPrivacy } from '../api/set-document-privacy';
import { formatBytes } from '../utils/upload-validation';
import { DeleteDocumentDialog } from './delete-document-dialog';
import { DocumentStatusBadge, DocumentStatusDetail } from './document-status';

interface Props {
  personalityId: string;
  document: DocumentDto;
  onOpen: (document: DocumentDto) => void;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function DocumentRow({ personalityId, document: doc, onOpen }: Props) {
  const process = useProcessDocument();
  const rechunk = useRechunkDocument();
  const privacy = useSetDocumentPrivacy();
  const privateId = useId();
  const heldId = useId();
  const variables = { personalityId, documentId: doc.id };
  const running = doc.status === 'processing';
  const audio = isAudioDocument(doc);

  const details = [
    doc.sizeBytes !== null ? formatBytes(doc.sizeBytes) : null,
    `${doc.chunkCount} ${doc.chunkCount === 1 ? 'chunk' : 'chunks'}`,
    formatDateTime(doc.createdAt),
  ].filter(Boolean);

  return (
    <li aria-label={doc.fileName} className="grid min-w-0 gap-2 rounded-lg border bg-card p-3">
      <div className="flex min-w-0 items-start justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <button
            type="button"
            onClick={() => onOpen(doc)}
            aria-label={`View chunks of ${doc.fileName}`}
            data-open-document={doc.id}
            className="flex min-w-0 items-center gap-1.5 rounded-sm text-left text-sm font-medium outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            {doc.sourceUrl ? (
              <GlobeIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            ) : audio ? (
              <AudioLinesIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            ) : (
              <FileTextIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            )}
            <span className="min-w-0 truncate" title={doc.fileName}>
              {doc.fileName}
            </span>
          </button>
          <p className="truncate text-xs text-muted-foreground">
            {details.join(' · ')}
            {doc.sourceUrl && <> · from {hostOf(doc.sourceUrl)}</>}
          </p>
        </div>
        <DocumentStatusBadge document={doc} />
      </div>
      <DocumentStatusDetail document={doc} />
      {audio && (
        // The original recording, streamed from the server only when played.
        <audio
          controls
          preload="none"
          aria-label={`Play ${doc.fileName}`}
          className="h-8 w-full max-w-sm"
          src={api.api.personalities[':id'].documents[':documentId'].audio.$path({ param: { id: personalityId, documentId: doc.id } })}
        />
      )}
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5">
        <Button
          variant="outline"
          size="sm"
          disabled={running || process.isPending}
          title="Extract, chunk and index this document again"
          onClick={() =>
            process.mutate(variables, {
              onError: (err) => toast.error(messages.documents.processingFailed, { description: errorMessage(err) }),
            })
          }
        >
          {process.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <RefreshCwIcon aria-hidden />}
          {audio && doc.status === 'failed' ? 'Retry' : 'Process'}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={running || rechunk.isPending || !doc.hasContent}
          title="Split the extracted text into chunks again"
          onClick={() =>
            rechunk.mutate(variables, {
              onError: (err) => toast.error(messages.documents.rechunkFailed, { description: errorMessage(err) }),
            })
          }
        >
          {rechunk.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <ScissorsIcon aria-hidden />}
          Rechunk
        </Button>
        <div className="ml-auto flex items-center gap-2">
          <div className="flex items-center gap-1.5">
            {doc.heldForReview && (
              <Badge variant="warning" title={messages.moderation.documentHeld} data-testid="document-held">
                <ShieldAlertIcon aria-hidden />
                {messages.documents.heldForReview}
                <span id={heldId} className="sr-only">
                  {messages.moderation.documentHeld}
                </span>
              </Badge>
            )}
            <Switch
              id={privateId}
              checked={privacy.isPending ? privacy.variables.isPrivate : doc.isPrivate}
              // Held: the server refuses to make it public until an admin clears it.
              disabled={privacy.isPending || doc.heldForReview}
              aria-describedby={doc.heldForReview ? heldId : undefined}
              onCheckedChange={(isPrivate) =>
                privacy.mutate(
                  { ...variables, isPrivate },
                  { onError: (err) => toast.error(messages.documents.privacyFailed, { description: errorMessage(err) }) },
                )
              }
            />
            <Label htmlFor={privateId} className="text-xs" title="Private documents are used only in your own conversations">
              Private
            </Label>
          </div>
          <DeleteDocumentDialog personalityId={personalityId} document={doc} />
        </div>
      </div>
    </li>
  );
}
