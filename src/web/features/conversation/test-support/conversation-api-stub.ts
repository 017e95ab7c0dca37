// Test support: the conversation routes answering in the API's real shapes, layered on the app's
// fake API (GET /api/me ...). The chat route answers a real server-sent event stream (the shared
// wire format) that a test drives event by event, and that errors when the client aborts.
import { vi } from 'vitest';
import { formatChatEvent, type ChatStreamEvent } from '../../../../shared/chat-stream';
import type { Conversation, ConversationSummary, DocumentReference, PromptPreview } from '../../../../shared/schemas/conversations';
import type { KnowledgeSummary } from '../../../../shared/schemas/documents';
import { fakeApi, type FakeAnswer, type FakeCall, type FakeUser } from '../../../test-support/fake-api';

export const personalityId = '7d3c1a52-0000-4000-8000-0000000000aa';
export const personality = { id: personalityId, name: 'Ada Lovelace', description: 'Mathematician. See https://example.org/ada' };
export const GREETING = "Hello! I'm Ada Lovelace. What would you like to talk about?";
export const STARTERS = ['Tell me about yourself, Ada.', 'What can you tell me about "engine notes"?', 'What does "mathematics" mean to you?', 'What advice would you give me?'];

export interface ChatStream {
  /** The request body the page sent. */
  body: Record<string, unknown>;
  signal: AbortSignal | undefined;
  push(event: ChatStreamEvent): void;
  /** Ends the stream (the server closing it). */
  end(): void;
}

export interface ConversationStubOptions {
  user?: FakeUser | null;
  isAdmin?: boolean;
  responder?: 'offline' | 'model';
  knowledge?: KnowledgeSummary;
  conversations?: Conversation[];
  /** Answers POST .../chat/preview (default: a preview built from the body). */
  preview?: (body: Record<string, unknown>) => FakeAnswer;
  /**
   * Handles POST .../chat: return a FakeAnswer to refuse it, or drive `stream` (default: a
   * complete reply "You asked: {message}", at once).
   */
  chat?: (stream: ChatStream) => FakeAnswer | void;
  /** Answer one call differently; undefined (or a promise of it, to hold a call back) keeps the stub's answer. */
  override?: (call: FakeCall) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;
}

export const ref = (overrides: Partial<DocumentReference> = {}): DocumentReference => ({
  fileName: 'engine-notes.txt (chunk 2)',
  similarity: 0.873,
  documentId: 'doc-1',
  chunkIndex: 1,
  ...overrides,
});

/** start, one delta per word, done: a whole reply as the server streams it. */
export function replyEvents(text: string, refs: DocumentReference[] = [], opts: { conversationId?: string | null; mode?: 'offline' | 'model' } = {}): ChatStreamEvent[] {
  return [
    { type: 'start', conversationId: opts.conversationId ?? null, userMessageId: null, mode: opts.mode ?? 'model', documentReferences: refs, documentsProcessing: false },
    ...(text.match(/\s*\S+\s*/g) ?? []).map((w): ChatStreamEvent => ({ type: 'delta', text: w })),
    { type: 'done', messageId: null, content: text, documentReferences: refs },
  ];
}

const stamp = '2026-01-02T03:04:05.000Z';
const error = (status: number, message: string, code = 'BAD_REQUEST'): FakeAnswer => ({ status, body: { error: { code, message } } });

export function stubConversationApi(options: ConversationStubOptions = {}) {
  const base = `/api/personalities/${personalityId}`;
  const conversations = new Map((options.conversations ?? []).map((c) => [c.id, structuredClone(c)]));
  const streams: ChatStream[] = [];

  const summary = (c: Conversation): ConversationSummary => {
    const { messages: _messages, ...rest } = c;
    return rest;
  };

  const answer = (call: FakeCall): FakeAnswer | undefined => {
    const { method, path } = call;
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (method === 'GET' && path === `${base}/starters`) {
      const mode = options.responder ?? 'offline';
      return { status: 200, body: { starters: STARTERS, greeting: GREETING, responder: { mode, label: mode === 'offline' ? 'Offline responder' : 'fake-model' } } };
    }
    if (method === 'GET' && path === `${base}/knowledge`) {
      return { status: 200, body: options.knowledge ?? {
          documents: 2,
          chunks: 14,
          processing: 0,
          ready: true,
          items: [
            { id: 'doc-1', fileName: 'letters.txt', status: 'ready', progress: 100 },
            { id: 'doc-2', fileName: 'notes.pdf', status: 'ready', progress: 100 },
          ],
        } };
    }
    if (method === 'GET' && path === '/api/admin/system-optimizations') {
      if (!options.isAdmin) return error(403, 'Forbidden', 'FORBIDDEN');
      return {
        status: 200,
        body: {
          contextCache: { entries: 3, maxEntries: 10, ttlSeconds: 600, preloaded: 2, hits: 9, misses: 3, hitRate: 0.75 },
          timeToFirstToken: {
            withCache: { count: 9, p50Ms: 12, p95Ms: 20, meanMs: 13 },
            withoutCache: { count: 3, p50Ms: 48, p95Ms: 60, meanMs: 50 },
          },
          responder: { mode: 'offline', label: 'Offline responder' },
          retrieval: { mode: 'full-text' },
        },
      };
    }
    if (method === 'GET' && path === `${base}/conversations`) {
      if (!options.user) return error(401, 'Authentication required', 'UNAUTHORIZED');
      // A page as the server answers it; the stub's list is taken as most recently active first.
      const limit = Number(call.query.get('limit') ?? 50);
      const offset = Number(call.query.get('offset') ?? 0);
      const all = [...conversations.values()];
      return { status: 200, body: { conversations: all.slice(offset, offset + limit).map(summary), hasMore: all.length > offset + limit } };
    }
    const convId = path.match(/^\/api\/conversations\/([^/]+)$/)?.[1];
    if (convId) {
      const c = conversations.get(convId);
      if (!c) return error(404, 'Conversation not found', 'NOT_FOUND');
      if (method === 'GET') return { status: 200, body: { conversation: c } };
      if (method === 'PATCH') {
        c.title = String(body.title);
        return { status: 200, body: { conversation: c } };
      }
      if (method === 'DELETE') {
        conversations.delete(convId);
        return { status: 200, body: { ok: true } };
      }
    }
    if (method === 'POST' && path === `${base}/chat/preview`) {
      if (options.preview) return options.preview(body);
      const preview: PromptPreview = {
        previewId: 'signed-preview-1',
        expiresAt: stamp,
        systemPrompt: 'You are Ada Lovelace.\n<material>passages</material>',
        documents: [ref()],
        messagesArray: [
          { role: 'system', content: 'You are Ada Lovelace.\n<material>passages</material>' },
          { role: 'user', content: String(body.message) },
        ],
      };
      return { status: 200, body: preview };
    }
    return undefined;
  };

  const fake = fakeApi({
    user: options.user ?? null,
    isAdmin: options.isAdmin ?? false,
    override: async (call) => (await options.override?.(call)) ?? answer(call),
  });

  // The chat route streams, which the JSON fake cannot: it is answered here, before the fake.
  const inner = fake.fetchMock;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost:3000');
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'POST' || url.pathname !== `${base}/chat`) return inner(input, init);
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    // A variable, not a literal: FakeCall may carry more fields than a streamed call needs.
    const call = { method, path: url.pathname, body, query: url.searchParams };
    fake.calls.push(call);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');

    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    const readable = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    signal?.addEventListener('abort', () => {
      if (closed) return;
      closed = true;
      controller.error(new DOMException('The operation was aborted.', 'AbortError'));
    });
    const stream: ChatStream = {
      body,
      signal,
      push(event) {
        if (closed) return;
        const { event: name, data } = formatChatEvent(event);
        controller.enqueue(encoder.encode(`event: ${name}\ndata: ${data}\n\n`));
      },
      end() {
        if (closed) return;
        closed = true;
        controller.close();
      },
    };
    streams.push(stream);
    const refusal = options.chat ? options.chat(stream) : (replyEvents(`You asked: ${String(body.message)}`).forEach((e) => stream.push(e)), stream.end());
    if (refusal) {
      return new Response(JSON.stringify(refusal.body), { status: refusal.status, headers: { 'content-type': 'application/json' } });
    }
    return new Response(readable, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    ...fake,
    fetchMock,
    base,
    streams,
    conversations,
    chatCalls: () => fake.callsTo('POST', `${base}/chat`),
  };
}

export function savedConversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: '0b9f7c4e-1111-4222-8333-444455556666',
    personalityId,
    title: 'The Analytical Engine',
    createdAt: stamp,
    updatedAt: stamp,
    messageCount: 3,
    messages: [
      { id: 'm1', sender: 'personality', content: GREETING, timestamp: stamp, kind: 'greeting', documentReferences: [] },
      { id: 'm2', sender: 'user', content: 'What did the engine weave?', timestamp: stamp, kind: 'message', documentReferences: [] },
      { id: 'm3', sender: 'personality', content: 'Algebraic patterns, like the Jacquard loom.', timestamp: stamp, kind: 'message', documentReferences: [ref()] },
    ],
    ...overrides,
  };
}
