// The history an anonymous visitor's browser sends with each message (a signed-in person's lives
// on the server). Only real exchanges go back to the model: never the greeting (spec section 9),
// nor an in-character fallback written after a failure, nor a reply still streaming in.
import { limits } from '../../../../shared/limits';
import type { HistoryItem } from '../../../../shared/schemas/conversations';
import type { LogMessage } from './log-message';

const ITEM_MAX_CHARS = limits.chatMessageMax * 4;

export function historyFrom(messages: LogMessage[]): HistoryItem[] {
  return messages
    .filter((m) => !m.streaming && (m.kind === 'message' || m.kind === 'stopped') && m.content.trim())
    .slice(-limits.chatHistoryRequestMaxItems)
    .map((m) => ({
      role: m.sender === 'user' ? ('user' as const) : ('assistant' as const),
      // The server bounds history by characters anyway; an over-long reply must not make it refuse.
      content: m.content.length > ITEM_MAX_CHARS ? m.content.slice(-ITEM_MAX_CHARS) : m.content,
    }));
}
