// "Make Private" behind the "Revert to Private" confirmation with the spec's exact text.
import { toast } from 'sonner';
import { LockIcon, LoaderCircleIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useRevertPersonality } from '../api/revert-personality';

export function RevertPersonalityDialog({ personality }: { personality: { id: string; name: string } }) {
  const revert = useRevertPersonality();

  const onConfirm = () =>
    revert.mutate(personality.id, {
      onSuccess: () => toast.success(messages.admin.reverted(personality.name)),
      onError: () => toast.error(messages.admin.revertFailed),
    });

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" disabled={revert.isPending} aria-label={`Make Private: ${personality.name}`}>
          {revert.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <LockIcon aria-hidden />}
          Make Private
        </Button>
      }
      title="Revert to Private"
      description={messages.admin.revertConfirm(personality.name)}
      confirmLabel="Make Private"
      onConfirm={onConfirm}
    />
  );
}
