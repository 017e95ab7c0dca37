// The owner's "Export card" dialog: download the personality as a Character Card V2 JSON file,
// or as a PNG card when it has an image, with the note that other documents stay behind.
// Loaded lazily (React.lazy in personality-card.tsx) the first time an owner opens it; the
// trigger button stays in the card.
import { DownloadIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { useReturnFocus } from '../../../lib/focus-management';
import { cardUrls } from '../api/import-card';

interface Props {
  personality: Personality;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export default function ExportCardDialog({ personality: p, open, onOpenChange }: Props) {
  // Opened by state (no Radix trigger): focus goes back to the card's Export button on close.
  const returnFocus = useReturnFocus(open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md" onCloseAutoFocus={returnFocus}>
        <DialogHeader>
          <DialogTitle className="[overflow-wrap:anywhere]">Export {p.name}</DialogTitle>
          <DialogDescription>
            A Character Card V2 file with the name, description, behaviour instructions, greeting and imported lorebook.{' '}
            {messages.cards.exportNote}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter className="sm:justify-start">
          <Button asChild variant="outline">
            <a href={cardUrls.json(p.id)} download>
              <DownloadIcon aria-hidden />
              Export card (JSON)
            </a>
          </Button>
          {p.hasAvatar && (
            <Button asChild variant="outline">
              <a href={cardUrls.png(p.id)} download>
                <DownloadIcon aria-hidden />
                Export card (PNG)
              </a>
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
