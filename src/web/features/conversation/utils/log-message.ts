// A message as the chat log holds it: the server's Chat message, plus what only the open chat
// knows (a reply still streaming in, and whether the offline responder wrote it).
import type { ChatMessage } from '../../../../shared/schemas/conversations';
import type { PronunciationReport } from '../../../../shared/schemas/pronunciation';

export interface LogMessage extends ChatMessage {
  /** The reply is still streaming in. */
  streaming?: boolean;
  /** Written by the offline responder (known for replies received in this tab). */
  offline?: boolean;
  /** A spoken message's pronunciation report (phonetic mode; known in the tab that recorded it). */
  pronunciationReport?: PronunciationReport;
  /** The server's token vouching for a streamed reply's text, sent with a report of it. */
  replyToken?: string;
}

let localSeq = 0;
/** An id for a message the server has not numbered (yet, or ever: anonymous chats). */
export function localId(prefix: string): string {
  localSeq += 1;
  return `${prefix}-${Date.now().toString(36)}-${localSeq}`;
}

export function greetingMessage(greeting: string): LogMessage {
  return {
    id: 'greeting',
    sender: 'personality',
    content: greeting,
    timestamp: new Date(0).toISOString(),
    kind: 'greeting',
    documentReferences: [],
  };
}
