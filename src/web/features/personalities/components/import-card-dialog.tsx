// "Import" a Character Card (V1/V2/V3, .json or .png): choose a file, see what would be imported
// (name, description, greeting, number of lorebook entries, and whether a long description goes on
// in the behaviour instructions), then Import or Cancel. Loaded lazily when opened (React.lazy in
// the dashboard). Card text is shown as text only.
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { LoaderCircleIcon, UploadIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { limits } from '../../../../shared/limits';
import type { CardPreview } from '../../../../shared/schemas/character-card';
import { errorMessage } from '../../../lib/api-client';
import { useReturnFocus } from '../../../lib/focus-management';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useImportCard, usePreviewCard } from '../api/import-card';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export default function ImportCardDialog({ open, onOpenChange }: Props) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CardPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const previewCard = usePreviewCard();
  const importCard = useImportCard();
  const busy = previewCard.isPending || importCard.isPending;
  // Opened by state (no Radix trigger): focus goes back to the Import button on close.
  const returnFocus = useReturnFocus(open);

  const reset = () => {
    setFile(null);
    setPreview(null);
    setError(null);
  };
  const close = () => {
    reset();
    onOpenChange(false);
  };

  const choose = (chosen: File | null) => {
    reset();
    if (!chosen) return;
    setFile(chosen);
    previewCard.mutate(chosen, {
      onSuccess: setPreview,
      onError: (err) => setError(errorMessage(err)),
    });
  };

  const confirm = () => {
    if (!file) return;
    importCard.mutate(file, {
      onSuccess: (p) => {
        toast.success(messages.cards.imported(p.name));
        close();
      },
      onError: (err) => setError(errorMessage(err, messages.cards.importFailed)),
    });
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg" onCloseAutoFocus={returnFocus}>
        <DialogHeader>
          <DialogTitle>Import a character card</DialogTitle>
          <DialogDescription>
            A Character Card V1, V2 or V3 file (.json, or a .png with the card inside). The new personality is private to you.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={fileId}>Character card file</Label>
          <Input
            id={fileId}
            type="file"
            accept=".json,.png,application/json,image/png"
            disabled={busy}
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
          />
        </div>
        {previewCard.isPending && (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
            Reading the card...
          </p>
        )}
        {error && (
          <Alert variant="destructive" role="alert" data-testid="import-card-error">
            <AlertDescription className="[overflow-wrap:anywhere]">{error}</AlertDescription>
          </Alert>
        )}
        {preview && (
          <section aria-label="Card preview" className="grid gap-3 rounded-lg border bg-muted/30 p-4 text-sm">
            <PreviewField label="Name" value={preview.name} />
            <PreviewField label="Description" value={preview.description} />
            {preview.descriptionContinued && (
              <p className="text-muted-foreground" data-testid="card-preview-description-continued">
                {messages.cards.descriptionContinued(limits.personalityDescriptionMax)}
              </p>
            )}
            <PreviewField label="Greeting" value={preview.greeting} />
            <PreviewField
              label="Lorebook entries"
              value={`${preview.lorebookEntries} ${preview.lorebookEntries === 1 ? 'entry' : 'entries'}${preview.lorebookEntries > 0 ? ' (added as a knowledge document)' : ''}`}
            />
            {preview.hasImage && <p className="text-muted-foreground">The card's image becomes the avatar.</p>}
          </section>
        )}
        <DialogFooter>
          <Button type="button" variant="ghost" onClick={close} disabled={importCard.isPending}>
            Cancel
          </Button>
          <Button type="button" variant="mystical" onClick={confirm} disabled={!preview || busy}>
            {importCard.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <UploadIcon aria-hidden />}
            {importCard.isPending ? 'Importing...' : 'Import'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function PreviewField({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5">
      <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</span>
      {/* Card text is data: rendered as text, never as HTML. */}
      <p className="line-clamp-6 [overflow-wrap:anywhere] whitespace-pre-line" data-testid={`card-preview-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {value || <span className="text-muted-foreground italic">(none)</span>}
      </p>
    </div>
  );
}
