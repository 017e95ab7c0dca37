// The history an anonymous visitor's browser sends with each message (a signed-in person's lives
// on the server). Only real exchanges go back to the model: never the greeting (spec section 9),
// nor an in-character fallback written after a failure, nor a reply still streaming in.
// Bounded as the server bounds it (prompt-builder's boundHistory: the newest chatHistoryMaxMessages
// turns, chatHistoryMaxChars characters in all): sending more only risked the request's size
// limit, which a long conversation in Japanese or Arabic reached (every message then refused with
// "The request is too large"), and the server would have dropped the rest anyway.
import { limits } from '../../../../shared/limits';
import { isModelHistory, type HistoryItem } from '../../../../shared/schemas/conversations';
import type { LogMessage } from './log-message';

export function historyFrom(messages: LogMessage[]): HistoryItem[] {
  const usable = messages.filter((m) => !m.streaming && isModelHistory(m.kind) && m.content.trim());
  const kept: HistoryItem[] = [];
  let budget = limits.chatHistoryMaxChars;
  for (let i = usable.length - 1; i >= 0 && kept.length < limits.chatHistoryMaxMessages && budget > 0; i--) {
    const m = usable[i]!;
    // The oldest turn kept is cut to what is left, from its start as the server cuts it.
    const content = m.content.length > budget ? m.content.slice(0, budget) : m.content;
    kept.unshift({ role: m.sender === 'user' ? 'user' : 'assistant', content });
    budget -= content.length;
  }
  return kept;
}
