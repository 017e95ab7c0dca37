// The passages a reply drew on: "{file name} (chunk N)" and its % match. Choosing one opens the
// source view with that chunk highlighted (the route wires it to the documents feature).
import { FileTextIcon } from 'lucide-react';
import { matchPercent } from '../../../../shared/document-reference';
import type { DocumentReference } from '../../../../shared/schemas/conversations';

export interface SourceReference {
  documentId: string;
  /** 0-based, as stored. */
  chunkIndex: number;
}

interface Props {
  references: DocumentReference[];
  onOpenSource?: (reference: SourceReference) => void;
}

const chipClass =
  'inline-flex max-w-full min-w-0 items-center gap-1.5 rounded-md border bg-card px-2 py-1 text-left text-xs text-foreground';

export function DocumentReferences({ references, onOpenSource }: Props) {
  if (references.length === 0) return null;
  return (
    <div className="grid gap-1.5">
      <p className="text-xs font-medium text-muted-foreground">Sources</p>
      <ul className="flex flex-wrap gap-1.5" aria-label="Document references">
        {references.map((ref) => {
          const content = (
            <>
              <FileTextIcon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
              <span className="min-w-0 [overflow-wrap:anywhere]">{ref.fileName}</span>
              <span className="shrink-0 rounded bg-secondary px-1 font-medium text-secondary-foreground tabular-nums">
                {matchPercent(ref.similarity)}
              </span>
            </>
          );
          return (
            <li key={`${ref.documentId}:${ref.chunkIndex}`} className="max-w-full min-w-0">
              {onOpenSource ? (
                <button
                  type="button"
                  className={`${chipClass} transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring`}
                  title={`Open ${ref.fileName}`}
                  onClick={() => onOpenSource({ documentId: ref.documentId, chunkIndex: ref.chunkIndex })}
                >
                  {content}
                </button>
              ) : (
                <span className={chipClass}>{content}</span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
