// The owner's "Export card" action: download the personality as a Character Card V2 JSON file,
// or as a PNG card when it has an image, with the note that other documents stay behind.
import { DownloadIcon, FileDownIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { cardUrls } from '../api/import-card';

interface Props {
  personality: Personality;
  triggerClassName?: string;
}

export function ExportCardDialog({ personality: p, triggerClassName }: Props) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className={triggerClassName} aria-label={`Export ${p.name} as a character card`} title="Export card">
          <FileDownIcon aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle className="break-words">Export {p.name}</DialogTitle>
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
