// The "Text Chat" tab. Chooses which conversation is open and keeps the choice in the tab: a
// signed-in person's saved conversation (resumed from the server after a reload, or picked from
// the list on another device), or an anonymous visitor's transcript (sessionStorage). Each open
// conversation is its own ChatPanel, keyed, so switching never mixes two conversations' state.
import { useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useStarters } from '../api/get-starters';
import { conversationQueryOptions } from '../api/get-conversation';
import { useListConversations } from '../api/list-conversations';
import { conversationKeys } from '../api/conversation-keys';
import { chatStorage } from '../utils/chat-storage';
import type { LogMessage } from '../utils/log-message';
import { ChatPanel, type ChatMode } from './chat-panel';
import { ConversationBar } from './conversation-bar';
import type { SourceReference } from './document-references';
import { SavedChatLoader } from './saved-chat-loader';

interface Props {
  personality: { id: string; name: string; avatarUrl?: string | null; agentId?: string | null };
  viewerId: string | null;
  onOpenSource?: (reference: SourceReference) => void;
  /** Which tab shows the conversation: Self-paced voice or Text Chat (one conversation). */
  mode?: ChatMode;
}

export function TextChat({ personality, viewerId, onOpenSource, mode = 'text' }: Props) {
  const personalityId = personality.id;
  const signedIn = viewerId !== null;
  const queryClient = useQueryClient();
  const starters = useStarters(personalityId, viewerId);
  const saved = useListConversations(personalityId, viewerId);
  const [activeId, setActiveId] = useState(() => (viewerId ? chatStorage.loadActive(viewerId, personalityId) : null));
  // What the chat panel was opened with. It changes only when the person picks a conversation,
  // not when a new conversation is saved and gets its id (its panel carries on).
  const [opened, setOpened] = useState({ key: 0, conversationId: activeId });
  // The open conversation as the chat loaded it, read from the cache and never fetched here: the
  // picker names it with this when it is older than the pages of the list loaded.
  const openConversation = useQuery({ ...conversationQueryOptions(activeId ?? '', viewerId ?? ''), enabled: false });

  const remember = useCallback(
    (id: string | null) => {
      setActiveId(id);
      if (viewerId) chatStorage.saveActive(viewerId, personalityId, id);
    },
    [viewerId, personalityId],
  );

  const open = useCallback(
    (id: string | null) => {
      if (!id) chatStorage.clearTranscript(personalityId);
      remember(id);
      setOpened((o) => ({ key: o.key + 1, conversationId: id }));
    },
    [personalityId, remember],
  );

  const openNew = useCallback(() => open(null), [open]);

  // After each exchange: the saved list (a new conversation, a new title, the order) and, for an
  // admin, the cache figures this exchange just moved.
  const refreshAfterExchange = useCallback(() => {
    if (!viewerId) return;
    void queryClient.invalidateQueries({ queryKey: conversationKeys.list(personalityId, viewerId) });
    void queryClient.invalidateQueries({ queryKey: conversationKeys.systemOptimizations() });
  }, [queryClient, personalityId, viewerId]);

  const panel = (initialMessages: LogMessage[], conversationId: string | null) => (
    <ChatPanel
      key={opened.key}
      personality={personality}
      signedIn={signedIn}
      initialMessages={initialMessages}
      initialConversationId={conversationId}
      greeting={starters.data?.greeting}
      starters={starters.data?.starters ?? []}
      offline={starters.data?.responder.mode === 'offline'}
      onConversationStarted={remember}
      onSettled={refreshAfterExchange}
      onOpenSource={onOpenSource}
      mode={mode}
      onClearChat={openNew}
      viewerKey={viewerId ?? 'anonymous'}
    />
  );

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <ConversationBar
        personalityId={personalityId}
        signedIn={signedIn}
        conversations={saved.conversations}
        loading={saved.isPending}
        hasMore={saved.hasMore}
        loadingMore={saved.loadingMore}
        onLoadMore={saved.loadMore}
        activeId={activeId}
        openConversation={openConversation.data}
        onOpen={open}
        onDeleted={(id) => {
          if (id === activeId) open(null);
        }}
      />
      {viewerId && opened.conversationId ? (
        <SavedChatLoader key={opened.key} conversationId={opened.conversationId} viewerId={viewerId} onMissing={openNew}>
          {(messages) => panel(messages, opened.conversationId)}
        </SavedChatLoader>
      ) : (
        panel(signedIn ? [] : chatStorage.loadTranscript(personalityId), null)
      )}
    </div>
  );
}
