// A document's status in the spec's words ("Needs Processing", "Needs Chunking", "Ready"), plus
// "Processing 40%" with a bar while a job runs and the reason when the last job gave up.
import { documentStatusLabel, type DocumentDto } from '../../../../shared/schemas/documents';
import { Badge, type BadgeProps } from '../../../components/ui/badge';
import { Progress } from '../../../components/ui/progress';

const variantByStatus: Record<DocumentDto['status'], BadgeProps['variant']> = {
  ready: 'success',
  processing: 'secondary',
  failed: 'destructive',
  needs_chunking: 'warning',
  needs_processing: 'warning',
};

export function DocumentStatusBadge({ document }: { document: DocumentDto }) {
  return (
    <Badge variant={variantByStatus[document.status]} data-testid="document-status" aria-live="polite">
      {documentStatusLabel(document)}
    </Badge>
  );
}

export function DocumentStatusDetail({ document }: { document: DocumentDto }) {
  if (document.status === 'processing') {
    return <Progress value={document.progress} aria-label={`Processing ${document.fileName}`} className="h-1.5" />;
  }
  if (document.status === 'failed' && document.error) {
    return (
      <p role="alert" className="text-xs [overflow-wrap:anywhere] text-destructive">
        {document.error}
      </p>
    );
  }
  return null;
}
