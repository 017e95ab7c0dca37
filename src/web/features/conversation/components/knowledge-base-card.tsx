// Side panel: "Knowledge Base", what this viewer's conversations may draw on (private documents
// count only for their owner): its newest documents with their status, and whether it is ready.
// Follows processing until it finishes.
import { BookOpenIcon, CheckIcon } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { plural } from '../utils/plural';
import { SidePanelCard } from './side-panel-card';
import { Skeleton } from '../../../components/ui/skeleton';
import { documentStatusLabel } from '../../../../shared/schemas/documents';
import { useKnowledge } from '../api/get-knowledge';

export function KnowledgeBaseCard({ personalityId, viewerId }: { personalityId: string; viewerId: string | null }) {
  const knowledge = useKnowledge(personalityId, viewerId);
  const k = knowledge.data;

  let body;
  if (knowledge.isPending) body = <Skeleton className="h-10" aria-label="Loading knowledge base" />;
  else if (!k) body = <p className="text-sm text-muted-foreground">The knowledge base could not be loaded.</p>;
  else if (k.documents === 0) body = <p className="text-sm text-muted-foreground">No documents yet: replies draw on the description alone.</p>;
  else {
    body = (
      <div className="grid gap-2 text-sm">
        <p>
          {plural(k.documents, 'document', 'documents')}, {plural(k.chunks, 'passage', 'passages')}
        </p>
        <div className="flex flex-wrap gap-1.5">
          {/* Not the word "Ready": Self-paced Chat's status says "Ready" on this screen, and a person
              (or a test) looking for it should find that one. */}
          {k.ready && <Badge variant="success">Up to date</Badge>}
          {k.processing > 0 && <Badge variant="warning">{plural(k.processing, 'document', 'documents')} processing</Badge>}
          {!k.ready && k.processing === 0 && <Badge variant="outline">Not ready</Badge>}
        </div>
        <ul aria-label="Documents" className="grid gap-1 border-t pt-2">
          {k.items.map((doc) => (
            <li key={doc.id} className="flex items-baseline justify-between gap-2">
              <span className="min-w-0 truncate" title={doc.fileName}>
                {doc.fileName}
              </span>
              {doc.status === 'ready' ? (
                // A tick (named "Ready" for screen readers) rather than the word, for the same reason.
                <CheckIcon role="img" aria-label={documentStatusLabel(doc)} className="size-3.5 shrink-0 text-success" />
              ) : (
                <span className="shrink-0 text-xs text-muted-foreground">{documentStatusLabel(doc)}</span>
              )}
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <SidePanelCard icon={BookOpenIcon} title="Knowledge Base" testId="knowledge-base">
      {body}
    </SidePanelCard>
  );
}
