// The owner's delete action, confirmed with the spec's exact text.
import { toast } from 'sonner';
import { Trash2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '../../../components/ui/alert-dialog';
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
    <AlertDialog>
      <AlertDialogTrigger asChild>
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
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {personality.name}?</AlertDialogTitle>
          <AlertDialogDescription>{messages.personality.deleteConfirm}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant="destructive" onClick={onConfirm}>
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
