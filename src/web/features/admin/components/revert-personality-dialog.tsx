// "Make Private" behind the "Revert to Private" confirmation with the spec's exact text.
import { toast } from 'sonner';
import { LockIcon, LoaderCircleIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
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
import { useRevertPersonality } from '../api/revert-personality';

export function RevertPersonalityDialog({ personality }: { personality: { id: string; name: string } }) {
  const revert = useRevertPersonality();

  const onConfirm = () =>
    revert.mutate(personality.id, {
      onSuccess: () => toast.success(messages.admin.reverted(personality.name)),
      onError: () => toast.error(messages.admin.revertFailed),
    });

  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" disabled={revert.isPending} aria-label={`Make ${personality.name} private`}>
          {revert.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <LockIcon aria-hidden />}
          Make Private
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revert to Private</AlertDialogTitle>
          <AlertDialogDescription>{messages.admin.revertConfirm(personality.name)}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant="destructive" onClick={onConfirm}>
            Make Private
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
