// The chat reply stream (POST /api/personalities/{id}/chat answers text/event-stream). Each SSE
// event is `event: <type>` + `data: <json>`; the order is start, delta*, then done or error.
// Browser-safe: the web client reads it with fetch + parseChatStream (EventSource cannot POST).
import type { DocumentReference } from './schemas/conversations';

export interface ChatStartEvent {
  type: 'start';
  /** The saved conversation this exchange belongs to (null for anonymous visitors). */
  conversationId: string | null;
  userMessageId: string | null;
  mode: 'offline' | 'model';
  /** The passages the reply draws on, known before the first word. */
  documentReferences: DocumentReference[];
  /** Some of the personality's documents are not ready: the reply says so. */
  documentsProcessing: boolean;
}
export interface ChatDeltaEvent {
  type: 'delta';
  text: string;
}
export interface ChatDoneEvent {
  type: 'done';
  messageId: string | null;
  content: string;
  documentReferences: DocumentReference[];
  /** Vouches that the personality said `content`, for a report of it (moderation/reply-token.ts). */
  replyToken?: string;
  /** Set when the exchange could not be saved (the person is told; the reply still shows). */
  saveFailed?: string;
}
export interface ChatErrorEvent {
  type: 'error';
  /** MODEL_FAILED: the model call failed; REPLY_WITHHELD: moderation held the reply back. */
  code: 'MODEL_FAILED' | 'REPLY_WITHHELD';
  /** "Failed to get AI response. Please try again." (the toast), or why the reply was withheld. */
  message: string;
  /**
   * A short in-character reply to add to the log so the conversation never dead-ends; with
   * `partial`, the words of the reply that arrived before it broke off instead.
   */
  fallback: string;
  /**
   * The reply broke off after some words (the model server failed or fell silent): they are kept,
   * saved as a stopped reply, and stay on screen; no canned reply is added.
   */
  partial?: boolean;
  messageId: string | null;
  /** Set when the exchange could not be saved. */
  saveFailed?: string;
}
export type ChatStreamEvent = ChatStartEvent | ChatDeltaEvent | ChatDoneEvent | ChatErrorEvent;

const EVENT_TYPES = new Set(['start', 'delta', 'done', 'error']);

/** Formats one event as SSE text (the server writes these). */
export function formatChatEvent(event: ChatStreamEvent): { event: string; data: string } {
  const { type, ...data } = event;
  return { event: type, data: JSON.stringify(data) };
}

/** Incremental SSE parser: feed it decoded text as it arrives, get whole events back. */
export function createChatStreamParser() {
  let buffer = '';
  return {
    feed(text: string): ChatStreamEvent[] {
      buffer += text.replace(/\r\n/g, '\n');
      const events: ChatStreamEvent[] = [];
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const parsed = parseBlock(block);
        if (parsed) events.push(parsed);
      }
      return events;
    },
  };
}

function parseBlock(block: string): ChatStreamEvent | undefined {
  let type = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (!EVENT_TYPES.has(type) || data.length === 0) return undefined;
  try {
    return { type, ...(JSON.parse(data.join('\n')) as object) } as ChatStreamEvent;
  } catch {
    return undefined;
  }
}

/** Reads a whole chat response body, calling onEvent per event; resolves when the stream ends. */
export async function readChatStream(body: ReadableStream<Uint8Array>, onEvent: (event: ChatStreamEvent) => void): Promise<void> {
  const parser = createChatStreamParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const e of parser.feed(decoder.decode(value, { stream: true }))) onEvent(e);
  }
  for (const e of parser.feed(decoder.decode() + '\n\n')) onEvent(e);
}
