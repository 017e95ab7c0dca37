// Above the chat: a signed-in person's saved conversations with this personality (resume one,
// rename or delete the open one) and "New conversation" for everyone. Anonymous visitors are
// told their conversation lasts as long as the tab.
import { useRef } from 'react';
import { MessageSquarePlusIcon } from 'lucide-react';
import type { ConversationSummary } from '../../../../shared/schemas/conversations';
import { Button } from '../../../components/ui/button';
import { focusWhenLost } from '../../../lib/focus-management';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { DeleteConversationDialog } from './delete-conversation-dialog';
import { RenameConversationDialog } from './rename-conversation-dialog';

interface Props {
  personalityId: string;
  signedIn: boolean;
  conversations: ConversationSummary[] | undefined;
  /** The saved list has not arrived yet (until then, "none yet" would be a guess). */
  loading?: boolean;
  activeId: string | null;
  onOpen: (conversationId: string | null) => void;
  onDeleted: (conversationId: string) => void;
}

export function ConversationBar({ personalityId, signedIn, conversations, loading = false, activeId, onOpen, onDeleted }: Props) {
  const picker = useRef<HTMLButtonElement>(null);
  const newConversation = useRef<HTMLButtonElement>(null);
  const newButton = (
    <Button ref={newConversation} variant="outline" size="sm" onClick={() => onOpen(null)}>
      <MessageSquarePlusIcon aria-hidden />
      {/* Icon only on a phone (the name stays for screen readers), so the bar keeps to one row. */}
      <span className={signedIn ? 'sr-only sm:not-sr-only' : undefined}>New conversation</span>
    </Button>
  );
  if (!signedIn) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">Sign in to save your conversations. This one lasts while this tab is open.</p>
        {newButton}
      </div>
    );
  }

  const active = conversations?.find((c) => c.id === activeId) ?? null;
  const list = conversations ?? [];

  // The deleted conversation's Delete button is disabled now (nothing is open): focus goes to the
  // saved conversations, or to "New conversation" when none is left (the list is then disabled).
  const deleted = (conversationId: string) => {
    const others = list.some((c) => c.id !== conversationId);
    onDeleted(conversationId);
    focusWhenLost(() => (others ? picker.current : newConversation.current));
  };
  return (
    <div className="flex items-center gap-2">
      <Select value={active ? active.id : ''} onValueChange={(id) => onOpen(id)} disabled={list.length === 0}>
        <SelectTrigger ref={picker} aria-label="Saved conversations" className="h-9 min-w-0 flex-1">
          <SelectValue placeholder={loading ? 'Loading saved conversations...' : list.length === 0 ? 'No saved conversations yet' : 'New conversation (not saved yet)'} />
        </SelectTrigger>
        <SelectContent>
          {list.map((c) => (
            <SelectItem key={c.id} value={c.id}>
              <bdi>{c.title}</bdi>
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <div className="flex shrink-0 items-center gap-1">
        <RenameConversationDialog personalityId={personalityId} conversation={active} />
        <DeleteConversationDialog personalityId={personalityId} conversation={active} onDeleted={deleted} />
        {newButton}
      </div>
    </div>
  );
}
