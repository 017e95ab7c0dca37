// A recipient's action on a personality shared with them: remove it from their own library.
// Anyone who knows a person's e-mail can share with them, so they must be able to undo it.
import { LogOutIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { useLeaveShare } from '../api/leave-share';
import { CardRemovalDialog } from './card-removal-dialog';

interface Props {
  personality: Personality;
  triggerClassName?: string;
}

export function LeaveShareDialog({ personality, triggerClassName }: Props) {
  return (
    <CardRemovalDialog
      personalityId={personality.id}
      removal={useLeaveShare()}
      trigger={{ label: `Remove ${personality.name} from my library`, title: 'Remove from my library', icon: <LogOutIcon aria-hidden />, className: triggerClassName }}
      confirm={{ title: messages.sharing.leaveTitle(personality.name), description: messages.sharing.leaveConfirm, label: 'Remove' }}
      toasts={{ done: messages.sharing.left, failed: messages.sharing.leaveFailed }}
    />
  );
}
