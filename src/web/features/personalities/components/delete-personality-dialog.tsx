// The owner's delete action, confirmed with the spec's exact text.
import { toast } from 'sonner';
import { Trash2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useDeletePersonality } from '../api/delete-personality';

interface Props {
  personality: Personality;
  triggerClassName?: string;
}

export function DeletePersonalityDialog({ personality, triggerClassName }: Props) {
  const remove = useDeletePersonality();

  const onConfirm = () => {
    remove.mutate(personality.id, {
      onSuccess: () => toast.success(messages.personality.deleted),
      onError: (err) =>
        toast.error(messages.personality.deleteFailed, {
          description: err instanceof ApiError ? err.message : undefined,
        }),
    });
  };

  return (
    <ConfirmDialog
      trigger={
        <Button
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
