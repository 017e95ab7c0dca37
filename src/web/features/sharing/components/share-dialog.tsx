// The owner's Share dialog (spec section 2): the sharing level, the people it is shared with,
// and the request to make it public. Opened from the "Share" button on the owner's card.
import { useState } from 'react';
import { toast } from 'sonner';
import { Share2Icon } from 'lucide-react';
import type { SharingType } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { effectiveSharingType } from '../../../../shared/personality-rules';
import type { Personality } from '../../../../shared/schemas/personality';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Separator } from '../../../components/ui/separator';
import { useViewer } from '../../auth/hooks/use-viewer';
import { useUpdateSharing } from '../api/update-sharing';
import { PublicRequestBlock } from './public-request-block';
import { SharePeople } from './share-people';
import { SharingLevelSelect } from './sharing-level-select';

interface Props {
  personality: Pick<Personality, 'id' | 'name' | 'sharingType' | 'isPublic'>;
  /** Called after the level changed, so the library can show the new badge. */
  onChanged?: () => void;
  triggerClassName?: string;
  /** Open as it mounts (a library card mounts the dialog when its Share button is first pressed). */
  defaultOpen?: boolean;
}

function approvalRequired() {
  toast.warning(messages.sharing.adminApprovalRequired, { description: messages.sharing.adminApprovalHint });
}

export function ShareDialog({ personality, onChanged, triggerClassName, defaultOpen = false }: Props) {
  const { isAdmin } = useViewer();
  const [open, setOpen] = useState(defaultOpen);
  const update = useUpdateSharing();

  // The level shown: the library's value, replaced by each answer from the server until the
  // library (refetched through onChanged) catches up with a new value of its own.
  const fromLibrary = effectiveSharingType(personality.sharingType, personality.isPublic);
  const [level, setLevel] = useState<SharingType>(fromLibrary);
  const [seen, setSeen] = useState(fromLibrary);
  if (fromLibrary !== seen) {
    setSeen(fromLibrary);
    setLevel(fromLibrary);
  }

  const applyLevel = (next: SharingType) => {
    if (next !== level) onChanged?.();
    setLevel(next);
  };

  function onSelect(next: SharingType) {
    if (next === level) return;
    if (next === 'public' && !isAdmin) {
      // Not sent: the select stays on the current level; the owner asks an admin instead.
      approvalRequired();
      return;
    }
    const previous = level;
    setLevel(next);
    update.mutate(
      { personalityId: personality.id, sharingType: next },
      {
        onSuccess: (state) => {
          toast.success(messages.sharing.updatedTitle, { description: messages.sharing.updatedBody(state.sharingType) });
          setLevel(state.sharingType);
          if (state.sharingType !== previous) onChanged?.();
        },
        onError: (err) => {
          setLevel(previous);
          if (err instanceof ApiError && err.status === 403 && next === 'public') approvalRequired();
          else toast.error(messages.sharing.updateFailed);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {/* Icon-sized: it sits beside "Start Chat" and "Docs" on a narrow card footer. */}
        <Button
          variant="outline"
          size="icon"
          className={triggerClassName}
          aria-label={`Share ${personality.name}`}
          title="Share"
        >
          <Share2Icon aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle className="[overflow-wrap:anywhere]">Share {personality.name}</DialogTitle>
          <DialogDescription>Choose who can see and chat with this personality.</DialogDescription>
        </DialogHeader>
        <SharingLevelSelect value={level} isAdmin={isAdmin} disabled={update.isPending} onChange={onSelect} />
        <Separator />
        <SharePeople personalityId={personality.id} onLevelChanged={applyLevel} />
        {level !== 'public' && (
          <>
            <Separator />
            <PublicRequestBlock personalityId={personality.id} personalityName={personality.name} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
