// Above the chat: a signed-in person's saved conversations with this personality (resume one,
// rename or delete the open one) and "New conversation" for everyone. Anonymous visitors are
// told their conversation lasts as long as the tab.
import { useRef } from 'react';
import { MessageSquarePlusIcon } from 'lucide-react';
import type { ConversationSummary } from '../../../../shared/schemas/conversations';
import { Button } from '../../../components/ui/button';
import { focusWhenLost } from '../../../lib/focus-management';
import { DeleteConversationDialog } from './delete-conversation-dialog';
import { RenameConversationDialog } from './rename-conversation-dialog';
import { SavedConversationPicker } from './saved-conversation-picker';

interface Props {
  personalityId: string;
  signedIn: boolean;
  /** The pages of saved conversations loaded so far, most recently active first. */
  conversations: ConversationSummary[] | undefined;
  /** The saved list has not arrived yet (until then, "none yet" would be a guess). */
  loading?: boolean;
  /** Older conversations exist beyond the pages loaded. */
  hasMore?: boolean;
  loadingMore?: boolean;
  onLoadMore?: () => void;
  activeId: string | null;
  /**
   * The open conversation as the chat loaded it, when it has been: named in the picker even when
   * it is older than the pages loaded (opened from an older page, then the page was reloaded).
   */
  openConversation?: Pick<ConversationSummary, 'id' | 'title'> | null;
  onOpen: (conversationId: string | null) => void;
  onDeleted: (conversationId: string) => void;
}

export function ConversationBar({
  personalityId,
  signedIn,
  conversations,
  loading = false,
  hasMore = false,
  loadingMore = false,
  onLoadMore = () => {},
  activeId,
  openConversation = null,
  onOpen,
  onDeleted,
}: Props) {
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

  const list = conversations ?? [];
  const listed = list.find((c) => c.id === activeId);
  const unlisted = !listed && activeId && openConversation?.id === activeId ? openConversation : null;
  const active = listed ?? unlisted;

  // The deleted conversation's Delete button is disabled now (nothing is open): focus goes to the
  // saved conversations, or to "New conversation" when none is left (the list is then disabled).
  const deleted = (conversationId: string) => {
    const others = list.some((c) => c.id !== conversationId) || hasMore;
    onDeleted(conversationId);
    focusWhenLost(() => (others ? picker.current : newConversation.current));
  };
  return (
    <div className="flex items-center gap-2">
      <SavedConversationPicker
        ref={picker}
        conversations={list}
        unlisted={unlisted}
        activeId={active ? active.id : null}
        loading={loading}
        hasMore={hasMore}
        loadingMore={loadingMore}
        onLoadMore={onLoadMore}
        onOpen={onOpen}
      />
      <div className="flex shrink-0 items-center gap-1">
        <RenameConversationDialog personalityId={personalityId} conversation={active} />
        <DeleteConversationDialog personalityId={personalityId} conversation={active} onDeleted={deleted} />
        {newButton}
      </div>
    </div>
  );
}
