// The conversation log. It follows new words while the reader is at the bottom, and leaves them
// alone when they have scrolled up to reread; sending a message brings them back down (their
// words and the reply are what they want to see), and "Jump to latest" does it on request. aria-busy while a reply streams in, so a screen
// reader announces the finished reply once instead of every word. "{name} is replying" is a
// status outside the log: inside the busy region it would never be announced.
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ArrowDownIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import type { LogMessage } from '../utils/log-message';
import { ChatMessage } from './chat-message';
import type { SourceReference } from './document-references';

interface Props {
  messages: LogMessage[];
  personalityName: string;
  /** Enables "Report" on replies. */
  personalityId?: string;
  /** The personality's picture beside its replies (the initial letter when absent). */
  avatarUrl?: string | null;
  busy: boolean;
  /** A line about the whole conversation, shown above the first message. */
  notice?: string;
  onOpenSource?: (reference: SourceReference) => void;
  /**
   * An action under each finished reply (Self-paced Chat: replay its voice). Messages are
   * memoized, so what it draws for a reply is kept: it must not capture state that changes (the
   * chat panel's replay goes through a ref).
   */
  replyAction?: (message: LogMessage) => ReactNode;
}

// Within this many pixels of the bottom counts as "at the bottom".
const STICK_PX = 48;

export function MessageLog({ messages, personalityName, personalityId, avatarUrl, busy, notice, onOpenSource, replyAction }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  // The newest message the person sent: when it changes, they have just sent (or opened) one.
  const lastSent = useRef<string | undefined>(undefined);
  const [below, setBelow] = useState(false);
  // The messages are memoized: they get callbacks that stay the same while calling the latest ones.
  const latest = useRef({ onOpenSource, replyAction });
  latest.current = { onOpenSource, replyAction };
  const openSource = useCallback((reference: SourceReference) => latest.current.onOpenSource?.(reference), []);
  const action = useCallback((message: LogMessage) => latest.current.replyAction?.(message), []);

  useLayoutEffect(() => {
    const el = box.current;
    const sent = messages.findLast((m) => m.sender === 'user')?.id;
    if (sent !== lastSent.current) {
      lastSent.current = sent;
      atBottom.current = true;
    }
    if (!el) return;
    if (atBottom.current) el.scrollTop = el.scrollHeight;
    setBelow(!atBottom.current);
  }, [messages]);

  const jumpToLatest = () => {
    const el = box.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    atBottom.current = true;
    setBelow(false);
    el.focus();
  };

  const replying = messages.some((m) => m.sender !== 'user' && m.streaming && !m.content);

  return (
    <>
      <div
        ref={box}
        role="log"
        aria-label={`Conversation with ${personalityName}`}
        aria-busy={busy}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
          setBelow(!atBottom.current);
        }}
        // At least 18rem, except on a short screen (a phone in landscape: 360 px), where a log
        // taller than the screen under the fixed header left no way to swipe down to the message
        // box; there the page scrolls on past its end too (no overscroll-contain).
        className="h-[clamp(18rem,calc(100dvh-28rem),44rem)] overflow-y-auto overscroll-contain [@media(max-height:520px)]:h-[clamp(8rem,calc(100dvh-14rem),18rem)] [@media(max-height:520px)]:overscroll-auto rounded-lg bg-muted/40 p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-4"
      >
        {notice && (
          <p className="mx-auto mb-4 max-w-md text-center text-xs text-muted-foreground" data-testid="offline-notice">
            {notice}
          </p>
        )}
        <ol className="grid grid-cols-[minmax(0,1fr)] gap-4" aria-label="Messages">
          {messages.map((m) => (
            <ChatMessage
              key={m.id}
              message={m}
              personalityName={personalityName}
              personalityId={personalityId}
              avatarUrl={avatarUrl}
              onOpenSource={onOpenSource ? openSource : undefined}
              action={replyAction ? action : undefined}
            />
          ))}
        </ol>
      </div>
      {below && (
        <div className="relative">
          <Button type="button" variant="secondary" size="sm" onClick={jumpToLatest} className="absolute right-3 bottom-3 shadow-md">
            <ArrowDownIcon aria-hidden="true" />
            Jump to latest
          </Button>
        </div>
      )}
      {/* Always present (a live region must exist before its text changes); visually hidden. */}
      <p role="status" className="sr-only" data-testid="reply-status">
        {replying ? `${personalityName} is replying` : ''}
      </p>
    </>
  );
}
