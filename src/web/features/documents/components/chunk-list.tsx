// Chunks in order, each with its number (chunk_index + 1, as references name them). The
// referenced one, when given, is marked "Referenced", scrolled into view and focused, so the
// eye and a screen reader both land on it.
import { useEffect, useRef } from 'react';
import { messages } from '../../../../shared/messages';
import type { ChunkDto } from '../../../../shared/schemas/documents';
import { cn } from '../../../lib/cn';
import { Badge } from '../../../components/ui/badge';

interface Props {
  chunks: ChunkDto[];
  label: string;
  referencedIndex?: number | null;
}

export function ChunkList({ chunks, label, referencedIndex = null }: Props) {
  const referenced = useRef<HTMLLIElement>(null);
  const hasReferenced = referencedIndex !== null && chunks.some((c) => c.chunkIndex === referencedIndex);

  useEffect(() => {
    const el = referenced.current;
    if (!hasReferenced || !el) return;
    // Centred with its neighbours around it, unless it is too tall to fit: then its start (with
    // the "Referenced" mark) goes to the top.
    const tall = el.getBoundingClientRect().height > window.innerHeight * 0.6;
    el.scrollIntoView({ block: tall ? 'start' : 'center' });
    el.focus({ preventScroll: true });
  }, [hasReferenced, referencedIndex]);

  return (
    <ol aria-label={label} className="grid min-w-0 gap-2.5">
      {chunks.map((chunk) => {
        const isReferenced = chunk.chunkIndex === referencedIndex;
        return (
          <li
            key={chunk.id}
            ref={isReferenced ? referenced : undefined}
            tabIndex={isReferenced ? -1 : undefined}
            aria-current={isReferenced ? 'true' : undefined}
            aria-label={`Chunk ${chunk.chunkIndex + 1}`}
            className={cn(
              'grid min-w-0 gap-1.5 rounded-lg border bg-card p-3 outline-none',
              isReferenced && 'border-primary bg-accent/40 ring-2 ring-primary/35',
            )}
          >
            <div className="flex items-center gap-2 text-xs font-medium text-muted-foreground">
              <span>Chunk {chunk.chunkIndex + 1}</span>
              {isReferenced && <Badge>{messages.documents.referenced}</Badge>}
            </div>
            <p dir="auto" className="text-sm leading-relaxed [overflow-wrap:anywhere] whitespace-pre-wrap">{chunk.content}</p>
          </li>
        );
      })}
    </ol>
  );
}
