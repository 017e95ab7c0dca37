// Renames the open saved conversation. A blank title is refused before anything is sent.
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PencilIcon } from 'lucide-react';
import { limits } from '../../../../shared/limits';
import { messages as texts } from '../../../../shared/messages';
import { isBlank } from '../../../../shared/text/visible';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { useRenameConversation } from '../api/rename-conversation';

interface Props {
  personalityId: string;
  conversation: { id: string; title: string } | null;
}

export function RenameConversationDialog({ personalityId, conversation }: Props) {
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const rename = useRenameConversation();

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setTitle(conversation?.title ?? '');
      setError(null);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!conversation) return;
    if (isBlank(title)) {
      setError(texts.chat.titleRequired);
      return;
    }
    rename.mutate(
      { personalityId, conversationId: conversation.id, title: title.trim() },
      {
        onSuccess: () => {
          toast.success('Conversation renamed');
          setOpen(false);
        },
        onError: (err) => toast.error('Failed to rename conversation', { description: errorMessage(err) }),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Rename conversation" title="Rename" disabled={!conversation}>
          <PencilIcon aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={onSubmit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Rename conversation</DialogTitle>
            <DialogDescription>Give this conversation a name you will recognise.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="rename-conversation-title">Title</Label>
            <Input
              id="rename-conversation-title"
              value={title}
              maxLength={limits.conversationTitleMax}
              onChange={(e) => {
                setTitle(e.target.value);
                setError(null);
              }}
              aria-invalid={error !== null}
              aria-describedby={error ? 'rename-conversation-title-error' : undefined}
              autoFocus
            />
            {error && (
              <p id="rename-conversation-title-error" role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={rename.isPending}>
              Save
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
