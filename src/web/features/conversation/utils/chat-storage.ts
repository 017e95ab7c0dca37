// What the conversation screen keeps in the browser, per tab (sessionStorage): an anonymous
// visitor's transcript (their conversation is not saved on the server, but survives a reload),
// and which saved conversation a signed-in person had open. Storage can be unavailable (privacy
// modes, quotas): then a reload simply starts a new conversation.
import { z } from 'zod';
import { chatMessageSchema } from '../../../../shared/schemas/conversations';
import type { LogMessage } from './log-message';

export const transcriptKey = (personalityId: string) => `kindred:chat-transcript:${personalityId}`;
export const activeConversationKey = (userId: string, personalityId: string) =>
  `kindred:active-conversation:${userId}:${personalityId}`;

// The reply token is kept too: a reply can still be reported, vouched for, after a reload.
const transcriptSchema = z.array(chatMessageSchema.extend({ offline: z.boolean().optional(), replyToken: z.string().max(2000).optional() }));

function read(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    // Nothing to do: the worst case is a reload that starts over.
  }
}

export const chatStorage = {
  loadTranscript(personalityId: string): LogMessage[] {
    const raw = read(transcriptKey(personalityId));
    if (!raw) return [];
    try {
      const parsed = transcriptSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  },
  saveTranscript(personalityId: string, messages: LogMessage[]) {
    const kept = messages.filter((m) => !m.streaming).map(({ streaming: _streaming, ...m }) => m);
    write(transcriptKey(personalityId), kept.length ? JSON.stringify(kept) : null);
  },
  clearTranscript: (personalityId: string) => write(transcriptKey(personalityId), null),
  /** Every personality's anonymous transcript in this tab: on sign-out, the tab may pass to someone else. */
  clearAllTranscripts() {
    const prefix = transcriptKey('');
    try {
      const keys = Array.from({ length: window.sessionStorage.length }, (_, i) => window.sessionStorage.key(i));
      for (const key of keys) if (key?.startsWith(prefix)) window.sessionStorage.removeItem(key);
    } catch {
      // Storage unavailable: there is nothing kept to clear.
    }
  },
  loadActive: (userId: string, personalityId: string) => read(activeConversationKey(userId, personalityId)),
  saveActive: (userId: string, personalityId: string, conversationId: string | null) =>
    write(activeConversationKey(userId, personalityId), conversationId),
};
