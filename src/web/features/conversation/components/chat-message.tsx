// One message in the log. The person's own words are shown as typed (plain text); replies are
// rendered Markdown (markdown-content.tsx) with the passages they drew on, a note when the
// offline responder wrote them, and a note when they were stopped part-way.
import { memo, type ReactNode } from 'react';
import { messages as texts } from '../../../../shared/messages';
import { SafeLinks } from '../../../lib/safe-links';
import { cn } from '../../../lib/cn';
import type { LogMessage } from '../utils/log-message';
import { DocumentReferences, type SourceReference } from './document-references';
import { MarkdownContent } from './markdown-content';
import { ReportReplyDialog } from './report-reply-dialog';
import { PronunciationReportView } from './pronunciation-report';
import { CopyButton } from './copy-button';
import { splitDoNotRead } from '../../../../shared/do-not-read';

/** A reply as it reads on the screen: DO_NOT_READ markers gone, their text kept. */
function visibleText(content: string): string {
  return splitDoNotRead(content)
    .map((segment) => segment.text)
    .join('');
}

interface Props {
  message: LogMessage;
  personalityName: string;
  /** Shows "Report" on finished replies (not the greeting, nor a notice standing in for a reply). */
  personalityId?: string;
  /** The personality's picture (a PNG card's); the initial letter when absent. */
  avatarUrl?: string | null;
  /** An extra action under a finished reply (e.g. replay its voice). */
  action?: (message: LogMessage) => ReactNode;
  onOpenSource?: (reference: SourceReference) => void;
}

/**
 * Memoized: while a reply streams, only it changes (the session keeps every other message's
 * object), so a long conversation is not drawn again for each word (a 16-turn open-mic call spent
 * 30-65 ms of main thread per update on it, delaying the reply's audio). Callers pass stable
 * callbacks (message-log.tsx).
 */
export const ChatMessage = memo(function ChatMessage({ message: m, personalityName, personalityId, avatarUrl, onOpenSource, action }: Props) {
  if (m.sender === 'user') {
    return (
      <li className="flex flex-col items-end gap-1.5" data-sender="user">
        <div className="max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-4 py-2.5 text-sm leading-relaxed whitespace-pre-wrap text-primary-foreground shadow-sm [overflow-wrap:anywhere]">
          {/* select-none: a drag selection copies the words, not this label. */}
          <span className="sr-only select-none">You: </span>
          {/* Its own element, so "You: " does not decide the direction of right-to-left words. */}
          <div dir="auto" data-testid="message-body">
            <SafeLinks text={m.content} linkClassName="underline underline-offset-2 [overflow-wrap:anywhere]" />
          </div>
        </div>
        {m.pronunciationReport && <PronunciationReportView report={m.pronunciationReport} />}
      </li>
    );
  }

  const waiting = m.streaming && !m.content;
  return (
    <li className="flex items-start gap-2.5" data-sender="personality" data-kind={m.kind}>
      {avatarUrl ? (
        <img src={avatarUrl} alt="" width={32} height={32} data-testid="reply-avatar" className="mt-0.5 size-8 shrink-0 rounded-full border object-cover" />
      ) : (
        <span
          aria-hidden
          className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-gradient-mystical select-none font-display text-sm font-semibold text-mystical-foreground"
        >
          {personalityName.trim().charAt(0).toUpperCase() || '?'}
        </span>
      )}
      <div
        className={cn(
          'grid max-w-[85%] min-w-0 gap-2.5 rounded-2xl rounded-tl-sm border bg-card px-4 py-2.5 text-sm shadow-sm [overflow-wrap:anywhere]',
          m.kind === 'fallback' && 'border-dashed',
        )}
      >
        <span className="sr-only select-none">{personalityName}: </span>
        {waiting ? (
          // The typing dots; "{name} is replying" is announced by the status beside the log
          // (message-log.tsx): inside the busy log it would not be.
          <span aria-hidden="true" className="flex items-center gap-1 py-1 text-muted-foreground" data-testid="reply-waiting">
            {[0, 150, 300].map((delay) => (
              <span
                key={delay}
                aria-hidden
                className="size-1.5 animate-pulse rounded-full bg-current"
                style={{ animationDelay: `${delay}ms` }}
              />
            ))}
          </span>
        ) : m.content ? (
          <MarkdownContent text={m.content} streaming={m.streaming} />
        ) : null /* stopped before its first word: the Stopped mark below is the whole reply */}
        {(m.offline || m.kind === 'stopped' || m.kind === 'cut_off') && (
          <div className="flex flex-wrap gap-1.5 text-xs text-muted-foreground">
            {m.offline && (
              <span className="rounded-full border px-2 py-0.5" title={texts.chat.offlineModeLabel} data-testid="responder-mode">
                Offline mode
              </span>
            )}
            {m.kind === 'stopped' && <span className="rounded-full border px-2 py-0.5">Stopped</span>}
            {m.kind === 'cut_off' && (
              // The person did not stop it: the AI service failed or fell silent part-way.
              <span className="rounded-full border px-2 py-0.5" title="The AI service stopped answering part-way: the words it sent are kept.">
                Cut off
              </span>
            )}
          </div>
        )}
        <DocumentReferences references={m.documentReferences} onOpenSource={onOpenSource} />
        {!m.streaming && m.content.trim() && (
          <div className="flex flex-wrap items-center gap-1">
            {action?.(m)}
            <CopyButton label="Copy reply" text={() => visibleText(m.content)} />
            {personalityId && m.kind !== 'greeting' && m.kind !== 'fallback' && <ReportReplyDialog personalityId={personalityId} content={m.content} messageId={m.id} replyToken={m.replyToken} />}
          </div>
        )}
      </div>
    </li>
  );
});
