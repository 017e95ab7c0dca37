// The prompt preview (spec section 2): the system prompt, the referenced documents with their %
// match and the exact messages array, then "Cancel" or "Send Prompt". Send Prompt sends the
// signed preview back, so the reply is made from exactly what is shown here.
import { SendIcon } from 'lucide-react';
import { matchPercent } from '../../../../shared/document-reference';
import type { PromptPreview } from '../../../../shared/schemas/conversations';
import { useReturnFocus } from '../../../lib/focus-management';
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

interface Props {
  preview: PromptPreview | null;
  onCancel: () => void;
  onSend: (preview: PromptPreview) => void;
  /**
   * Where focus goes when it closes (it has no Radix trigger, and the Preview button that opened
   * it was disabled while the preview loaded); by default what had focus when it opened.
   */
  returnFocus?: () => HTMLElement | null | undefined;
}

// The blocks scroll on their own: each is focusable (so the keyboard can scroll it) and named.
const preClass =
  'max-h-64 overflow-auto rounded-md border bg-muted/50 p-3 font-mono text-xs leading-relaxed [overflow-wrap:anywhere] whitespace-pre-wrap outline-none focus-visible:ring-2 focus-visible:ring-ring';

export function PromptPreviewDialog({ preview, onCancel, onSend, returnFocus }: Props) {
  const onCloseAutoFocus = useReturnFocus(preview !== null, returnFocus);
  return (
    <Dialog open={preview !== null} onOpenChange={(open) => !open && onCancel()}>
      <DialogContent className="sm:max-w-3xl" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Prompt preview</DialogTitle>
          <DialogDescription>Exactly what will be sent for this message.</DialogDescription>
        </DialogHeader>
        {preview && (
          <div className="grid min-w-0 gap-5">
            <section aria-labelledby="preview-system" className="grid gap-2">
              <h3 id="preview-system" className="text-sm font-semibold">
                System prompt
              </h3>
              <pre className={preClass} data-testid="preview-system-prompt" role="group" aria-labelledby="preview-system" tabIndex={0}>
                {preview.systemPrompt}
              </pre>
            </section>
            <section aria-labelledby="preview-documents" className="grid gap-2">
              <h3 id="preview-documents" className="text-sm font-semibold">
                Referenced documents ({preview.documents.length})
              </h3>
              {preview.documents.length === 0 ? (
                <p className="text-sm text-muted-foreground">No document passages match this message.</p>
              ) : (
                <ul className="grid gap-1 text-sm" aria-label="Referenced documents">
                  {preview.documents.map((d) => (
                    <li key={`${d.documentId}:${d.chunkIndex}`} className="flex min-w-0 items-center justify-between gap-3">
                      <span className="min-w-0 [overflow-wrap:anywhere]">{d.fileName}</span>
                      <span className="shrink-0 rounded bg-secondary px-1.5 text-xs font-medium text-secondary-foreground tabular-nums">
                        {matchPercent(d.similarity)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="preview-messages" className="grid gap-2">
              <h3 id="preview-messages" className="text-sm font-semibold">
                Messages ({preview.messagesArray.length})
              </h3>
              <ol className="grid gap-2" aria-label="Messages array">
                {preview.messagesArray.map((m, i) => (
                  <li key={i} className="grid gap-1">
                    <span className="font-mono text-xs font-semibold text-muted-foreground">
                      {m.role}
                    </span>
                    <pre className={preClass} role="group" aria-label={`Message ${i + 1}: ${m.role}`} tabIndex={0} dir="auto">
                      {m.content}
                    </pre>
                  </li>
                ))}
              </ol>
            </section>
          </div>
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="mystical" onClick={() => preview && onSend(preview)}>
            <SendIcon aria-hidden />
            Send Prompt
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
