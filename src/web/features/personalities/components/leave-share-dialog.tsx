// A recipient's action on a personality shared with them: remove it from their own library.
// Anyone who knows a person's e-mail can share with them, so they must be able to undo it.
import { useRef } from 'react';
import { toast } from 'sonner';
import { LogOutIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { ApiError } from '../../../lib/api-client';
import { focusAfterRemoval, focusWhenLost } from '../../../lib/focus-management';
import { LIBRARY_TITLE_ID } from '../utils/focus-targets';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useLeaveShare } from '../api/leave-share';

interface Props {
  personality: Personality;
  triggerClassName?: string;
}

export function LeaveShareDialog({ personality, triggerClassName }: Props) {
  const leave = useLeaveShare();
  const trigger = useRef<HTMLButtonElement>(null);

  const onConfirm = () => {
    const stopWaiting = focusAfterRemoval(trigger.current?.closest('li'), () => document.getElementById(LIBRARY_TITLE_ID));
    leave.mutate(personality.id, {
      onSuccess: () => toast.success(messages.sharing.left),
      onError: (err) => {
        stopWaiting();
        focusWhenLost(() => trigger.current);
        toast.error(messages.sharing.leaveFailed, { description: err instanceof ApiError ? err.message : undefined });
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
          aria-label={`Remove ${personality.name} from my library`}
          title="Remove from my library"
          disabled={leave.isPending}
        >
          <LogOutIcon aria-hidden />
        </Button>
      }
      title={messages.sharing.leaveTitle(personality.name)}
      description={messages.sharing.leaveConfirm}
      confirmLabel="Remove"
      onConfirm={onConfirm}
    />
  );
}
