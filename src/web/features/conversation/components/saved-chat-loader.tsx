// Resumes a saved conversation: reads it once, then hands its messages to the chat panel. A
// conversation that is gone (deleted on another device) quietly gives way to a new one.
import { useEffect, type ReactNode } from 'react';
import { LoaderCircleIcon } from 'lucide-react';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useConversation } from '../api/get-conversation';
import type { LogMessage } from '../utils/log-message';

interface Props {
  conversationId: string;
  viewerId: string;
  onMissing: () => void;
  children: (messages: LogMessage[]) => ReactNode;
}

export function SavedChatLoader({ conversationId, viewerId, onMissing, children }: Props) {
  const conversation = useConversation(conversationId, viewerId);
  const missing = conversation.error instanceof ApiError && conversation.error.status === 404;

  useEffect(() => {
    if (missing) onMissing();
  }, [missing, onMissing]);

  if (conversation.data) return children(conversation.data.messages);
  if (conversation.isError && !missing) {
    return (
      <Alert variant="destructive" className="flex flex-wrap items-center justify-between gap-3">
        <AlertDescription>{errorMessage(conversation.error, 'Could not load this conversation.')}</AlertDescription>
        <Button variant="outline" size="sm" onClick={() => void conversation.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  return (
    <p role="status" className="flex h-64 items-center justify-center gap-2 text-sm text-muted-foreground">
      <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
      Loading conversation...
    </p>
  );
}
