// Deletes the open saved conversation after confirmation; the screen then starts a new one.
import { useRef } from 'react';
import { toast } from 'sonner';
import { Trash2Icon } from 'lucide-react';
import { errorMessage } from '../../../lib/api-client';
import { focusWhenLost } from '../../../lib/focus-management';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useDeleteConversation } from '../api/delete-conversation';

interface Props {
  personalityId: string;
  conversation: { id: string; title: string } | null;
  onDeleted: (conversationId: string) => void;
}

export function DeleteConversationDialog({ personalityId, conversation, onDeleted }: Props) {
  const remove = useDeleteConversation();
  const trigger = useRef<HTMLButtonElement>(null);

  const onConfirm = () => {
    if (!conversation) return;
    remove.mutate(
      { personalityId, conversationId: conversation.id },
      {
        onSuccess: () => {
          toast.success('Conversation deleted');
          onDeleted(conversation.id);
        },
        onError: (err) => {
          toast.error('Failed to delete conversation', { description: errorMessage(err) });
          // Still there: back to its Delete button (disabled while deleting) once usable again.
          focusWhenLost(() => trigger.current);
        },
      },
    );
  };

  return (
    <ConfirmDialog
      trigger={
        <Button
          ref={trigger}
          variant="ghost"
          size="icon"
          aria-label="Delete conversation"
          title="Delete"
          disabled={!conversation || remove.isPending}
        >
          <Trash2Icon aria-hidden />
        </Button>
      }
      title="Delete this conversation?"
      description={`“${conversation?.title}” and all of its messages will be deleted. This cannot be undone.`}
      confirmLabel="Delete"
      onConfirm={onConfirm}
    />
  );
}
