// The personality's documents with a count badge, newest first, or the list's loading, failure
// and empty states.
import { useId } from 'react';
import { RotateCwIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { errorMessage } from '../../../lib/api-client';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { DocumentRow } from './document-row';

interface Props {
  personalityId: string;
  documents: DocumentDto[] | undefined;
  isPending: boolean;
  error: unknown;
  isRetrying: boolean;
  onRetry: () => void;
  onOpen: (document: DocumentDto) => void;
}

export function DocumentList({ personalityId, documents, isPending, error, isRetrying, onRetry, onOpen }: Props) {
  const headingId = useId();
  const count = documents?.length ?? 0;

  let body;
  if (error && !documents) {
    body = (
      <Alert variant="destructive">
        <AlertTitle>{messages.documents.loadFailed}</AlertTitle>
        <AlertDescription>
          <p>{errorMessage(error)}</p>
          <Button variant="outline" size="sm" className="mt-2" onClick={onRetry} disabled={isRetrying}>
            <RotateCwIcon className={isRetrying ? 'animate-spin' : undefined} aria-hidden />
            Retry
          </Button>
        </AlertDescription>
      </Alert>
    );
  } else if (isPending || !documents) {
    body = (
      <p role="status" className="text-sm text-muted-foreground">
        Loading...
      </p>
    );
  } else if (documents.length === 0) {
    body = (
      <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
        No documents yet. Upload a file or import an article to give this personality something to draw on.
      </p>
    );
  } else {
    body = (
      <ul aria-labelledby={headingId} className="grid gap-2">
        {documents.map((document) => (
          <DocumentRow key={document.id} personalityId={personalityId} document={document} onOpen={onOpen} />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby={headingId} className="grid min-w-0 gap-2">
      <div className="flex items-center gap-2">
        <h3 id={headingId} className="text-sm font-medium">
          Uploaded documents
        </h3>
        {/* Read after the heading as a bare number; the list itself is announced with its count of
            items. (An aria-label here was ignored: screen readers skip it on a span with no role.) */}
        <Badge variant="secondary" data-testid="document-count">
          {count}
        </Badge>
      </div>
      {body}
    </section>
  );
}
