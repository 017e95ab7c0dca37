// The owner's delete action, confirmed with the spec's exact text.
import { toast } from 'sonner';
import { Trash2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { useRef } from 'react';
import { ApiError } from '../../../lib/api-client';
import { focusAfterRemoval, focusWhenLost } from '../../../lib/focus-management';
import { LIBRARY_TITLE_ID } from '../utils/focus-targets';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useDeletePersonality } from '../api/delete-personality';

interface Props {
  personality: Personality;
  triggerClassName?: string;
}

export function DeletePersonalityDialog({ personality, triggerClassName }: Props) {
  const remove = useDeletePersonality();
  const trigger = useRef<HTMLButtonElement>(null);

  const onConfirm = () => {
    // When the card leaves the library, focus goes to the next card (else the previous one, else
    // the library's title) instead of being dropped with it.
    const stopWaiting = focusAfterRemoval(trigger.current?.closest('li'), () => document.getElementById(LIBRARY_TITLE_ID));
    remove.mutate(personality.id, {
      onSuccess: () => toast.success(messages.personality.deleted),
      onError: (err) => {
        stopWaiting();
        // The card stays: back to its Delete button (disabled while deleting) once usable again.
        focusWhenLost(() => trigger.current);
        toast.error(messages.personality.deleteFailed, {
          description: err instanceof ApiError ? err.message : undefined,
        });
      },
    });
  };

  return (
    <ConfirmDialog
      trigger={
        <Button
          ref={trigger}
          variant="ghost"
          size="icon"
          className={triggerClassName}
          aria-label={`Delete ${personality.name}`}
          title="Delete"
          disabled={remove.isPending}
        >
          <Trash2Icon aria-hidden />
        </Button>
      }
      title={`Delete ${personality.name}?`}
      description={messages.personality.deleteConfirm}
      confirmLabel="Delete"
      onConfirm={onConfirm}
    />
  );
}
