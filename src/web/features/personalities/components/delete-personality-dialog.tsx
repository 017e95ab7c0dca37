// The owner's delete action, confirmed with the spec's exact text.
import { Trash2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { useDeletePersonality } from '../api/delete-personality';
import { CardRemovalDialog } from './card-removal-dialog';

interface Props {
  personality: Personality;
  triggerClassName?: string;
}

export function DeletePersonalityDialog({ personality, triggerClassName }: Props) {
  return (
    <CardRemovalDialog
      personalityId={personality.id}
      removal={useDeletePersonality()}
      trigger={{ label: `Delete ${personality.name}`, title: 'Delete', icon: <Trash2Icon aria-hidden />, className: triggerClassName }}
      confirm={{ title: `Delete ${personality.name}?`, description: messages.personality.deleteConfirm, label: 'Delete' }}
      toasts={{ done: messages.personality.deleted, failed: messages.personality.deleteFailed }}
    />
  );
}
