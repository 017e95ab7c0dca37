// The open conversation: the log, the starters (until the first question), the message box and
// the prompt preview. An anonymous visitor's transcript is kept in the tab (sessionStorage) so a
// reload does not lose it; a signed-in person's is saved by the server as it goes.
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { RotateCcwIcon } from 'lucide-react';
import { messages as texts } from '../../../../shared/messages';
import type { PromptPreview } from '../../../../shared/schemas/conversations';
import { ApiError } from '../../../lib/api-client';
import { lazyNamed } from '../../../lib/lazy-named';
import { Button } from '../../../components/ui/button';
import type { ReplayTarget } from '../../voice/components/self-paced-chat';
import { usePromptPreview } from '../api/get-prompt-preview';
import { useChatSession } from '../hooks/use-chat-session';
import { historyFrom } from '../utils/chat-history';
import { chatStorage } from '../utils/chat-storage';
import { greetingMessage, type LogMessage } from '../utils/log-message';
import { ConversationStarters } from './conversation-starters';
import type { SourceReference } from './document-references';
import { MessageComposer } from './message-composer';
import { MessageLog } from './message-log';
import { PromptPreviewDialog } from './prompt-preview-dialog';

// Voice (recorder, player, their worklet) loads when the Self-paced tab is first shown.
const SelfPacedChat = lazyNamed(() => import('../../voice/components/self-paced-chat'), 'SelfPacedChat');
// Open mic (its VAD, the agent client) loads when the Open Mic Chat tab is first shown.
const OpenMicChat = lazyNamed(() => import('../../voice/components/open-mic-chat'), 'OpenMicChat');

export type ChatMode = 'open-mic' | 'voice' | 'text';

const voiceLoading = (
  <p role="status" className="text-sm text-muted-foreground">
    Loading voice...
  </p>
);

interface Props {
  personality: { id: string; name: string; avatarUrl?: string | null; agentId?: string | null };
  signedIn: boolean;
  /** Who is asking (open mic keeps pre-opened connections per person). */
  viewerKey?: string;
  initialMessages: LogMessage[];
  initialConversationId: string | null;
  /** Shown first when the conversation does not carry its own (a new one). */
  greeting?: string;
  starters: string[];
  /** The embedded offline responder answers here (the log says so). */
  offline?: boolean;
  onConversationStarted?: (conversationId: string) => void;
  onSettled?: () => void;
  onOpenSource?: (reference: SourceReference) => void;
  /** Self-paced voice or the message box: the same conversation either way. */
  mode?: ChatMode;
  /** "Clear Chat": a new, empty conversation (a saved one stays in the list). */
  onClearChat?: () => void;
}

export function ChatPanel({
  personality,
  signedIn,
  initialMessages,
  initialConversationId,
  greeting,
  starters,
  offline = false,
  onConversationStarted,
  onSettled,
  onOpenSource,
  mode = 'text',
  onClearChat,
  viewerKey = 'anonymous',
}: Props) {
  const session = useChatSession({
    personalityId: personality.id,
    signedIn,
    initialMessages,
    initialConversationId,
    onConversationStarted,
    onSettled,
  });
  const [draft, setDraft] = useState('');
  const [preview, setPreview] = useState<{ message: string; data: PromptPreview } | null>(null);
  const loadPreview = usePromptPreview();
  const input = useRef<HTMLTextAreaElement>(null);
  const replay = useRef<((m: ReplayTarget) => void) | null>(null);
  // Where focus goes when the prompt preview closes: the Preview button that opened it (Cancel,
  // Escape), or the message box once "Send Prompt" sent the message.
  const previewReturn = useRef<HTMLElement | null>(null);
  const [canReplay, setCanReplay] = useState(false);
  const registerReplay = useCallback((fn: ((m: ReplayTarget) => void) | null) => {
    replay.current = fn;
    setCanReplay(fn !== null);
  }, []);

  useEffect(() => {
    if (!signedIn && !session.streaming) chatStorage.saveTranscript(personality.id, session.messages);
  }, [signedIn, session.streaming, session.messages, personality.id]);

  const send = (text: string, previewId?: string) => {
    setDraft('');
    void session.send(text, { previewId }).then((accepted) => {
      // Refused (e.g. an expired preview): give the words back rather than lose them.
      if (!accepted) setDraft((current) => current || text);
    });
    input.current?.focus();
  };

  const openPreview = () => {
    const message = draft.trim();
    if (!message) return;
    const active = document.activeElement;
    previewReturn.current = active instanceof HTMLElement && active !== document.body ? active : input.current;
    loadPreview.mutate(
      {
        personalityId: personality.id,
        request: {
          message,
          conversationId: session.conversationId ?? undefined,
          conversationHistory: signedIn ? undefined : historyFrom(session.messages),
        },
      },
      {
        onSuccess: (data) => setPreview({ message, data }),
        onError: (err) =>
          toast.error(texts.chat.previewFailed, { description: err instanceof ApiError && err.status < 500 ? err.message : undefined }),
      },
    );
  };

  const hasGreeting = session.messages.some((m) => m.kind === 'greeting');
  const shown = !hasGreeting && greeting ? [greetingMessage(greeting), ...session.messages] : session.messages;
  const asked = session.messages.some((m) => m.sender === 'user');

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <MessageLog
        messages={shown}
        personalityName={personality.name}
        personalityId={personality.id}
        avatarUrl={personality.avatarUrl}
        busy={session.streaming}
        onOpenSource={onOpenSource}
        notice={offline ? `${texts.chat.offlineModeLabel}.` : undefined}
        replyAction={
          mode === 'voice' && canReplay
            ? (m) => (
                <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" onClick={() => replay.current?.(m)}>
                  <RotateCcwIcon aria-hidden />
                  {texts.voice.replay}
                </Button>
              )
            : undefined
        }
      />
      {mode === 'open-mic' ? (
        <Suspense fallback={voiceLoading}>
          <OpenMicChat
            personality={personality}
            viewerKey={viewerKey}
            onLineSaved={onSettled}
            send={session.send}
            stopReply={session.stop}
            appendLine={session.append}
            withholdLine={session.withholdLine}
            adoptConversation={session.adoptConversation}
            currentConversationId={session.currentConversationId}
            chatContext={session.chatContext}
          />
        </Suspense>
      ) : mode === 'voice' ? (
        <Suspense fallback={voiceLoading}>
          <SelfPacedChat
            personality={personality}
            send={session.send}
            busy={session.streaming}
            onClearChat={() => onClearChat?.()}
            registerReplay={registerReplay}
          />
        </Suspense>
      ) : (
        <>
      {!asked && <ConversationStarters starters={starters} disabled={session.streaming} onPick={(s) => send(s)} />}
      <MessageComposer
        ref={input}
        personalityName={personality.name}
        value={draft}
        onChange={setDraft}
        onSend={() => send(draft)}
        onPreview={openPreview}
        onStop={session.stop}
        streaming={session.streaming}
        previewing={loadPreview.isPending}
      />
        </>
      )}
      <PromptPreviewDialog
        preview={preview?.data ?? null}
        onCancel={() => setPreview(null)}
        returnFocus={() => previewReturn.current}
        onSend={(data) => {
          const message = preview?.message ?? '';
          previewReturn.current = input.current;
          setPreview(null);
          send(message, data.previewId);
        }}
      />
    </div>
  );
}
