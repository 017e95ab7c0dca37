// Chat routes under /api/personalities/{id}: starters, prompt preview, and the streamed reply.
// Anyone who may see the personality may use them (anonymous visitors with public ones).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { formatChatEvent, type ChatStreamEvent } from '../../../shared/chat-stream';
import { chatRequestSchema, previewRequestSchema, previewResponseSchema, startersResponseSchema } from '../../../shared/schemas/conversations';
import type { ChatService } from './chat.service';
import { timed } from '../../lib/server-timing';
import type { ConversationService } from './conversations.service';
import { pendingHit } from '../rate-limits/rate-limits.middleware';

const tags = ['chat'];
const idParams = z.object({ id: z.string() });

const starters = createRoute({
  method: 'get',
  path: '/{id}/starters',
  tags,
  summary: 'Four conversation starters, the greeting, and which responder answers (offline or a model)',
  request: { params: idParams },
  responses: { 200: jsonResponse(startersResponseSchema, 'Starters'), ...errorResponses },
});
const preview = createRoute({
  method: 'post',
  path: '/{id}/chat/preview',
  tags,
  summary: 'The exact prompt a message would send: system prompt, referenced passages, messages array, and a previewId for "Send Prompt"',
  request: { params: idParams, ...jsonBody(previewRequestSchema) },
  responses: { 200: jsonResponse(previewResponseSchema, 'The prompt preview'), ...errorResponses },
});
const chat = createRoute({
  method: 'post',
  path: '/{id}/chat',
  tags,
  summary:
    'Send a message; the reply streams as server-sent events: start, delta*, then done or error (see src/shared/chat-stream.ts). ' +
    'Disconnecting stops the reply and the model call.',
  request: { params: idParams, ...jsonBody(chatRequestSchema) },
  responses: {
    200: { content: { 'text/event-stream': { schema: z.string() } }, description: 'The reply as SSE' },
    ...errorResponses,
  },
});

/**
 * One event as SSE text, framed here: an `event:` line and one `data:` line (JSON.stringify never
 * writes a raw line break), so a streamed word costs its JSON and one write, nothing more.
 */
function sseText(event: ChatStreamEvent): string {
  const { event: name, data } = formatChatEvent(event);
  return `event: ${name}\ndata: ${data}\n\n`;
}

const utf8 = new TextEncoder();

/**
 * The events as the response body: each is framed and handed over when the socket asks for more,
 * one event a read. Hono's streamSSE put a TransformStream (a writer, then a reader) between the
 * events and the socket, ~5 % of the server's CPU at ten conversations (issue 19). Leaving early
 * (the client went away: the body is cancelled) stops the reply and the model call, and the
 * events' own ending saves what was said.
 */
function eventStream(events: AsyncGenerator<ChatStreamEvent>, abort: AbortController, ended: () => void): ReadableStream<Uint8Array> {
  // Set once the body is cancelled: an event still on its way is dropped (the controller refuses
  // anything after a cancel, and that refusal is no fault to log).
  let cancelled = false;
  const finish = () => {
    ended();
    return events.return(undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: IteratorResult<ChatStreamEvent>;
        try {
          next = abort.signal.aborted ? await finish() : await events.next();
        } catch (err) {
          // The events end in an error event of their own; anything thrown past them is a fault:
          // logged, and the stream ends as streamSSE ended it.
          console.error(err);
          next = await finish();
        }
        if (cancelled) return;
        if (next.done) {
          ended();
          controller.close();
          return;
        }
        controller.enqueue(utf8.encode(sseText(next.value)));
      },
      async cancel() {
        cancelled = true;
        abort.abort();
        await finish();
      },
    },
    { highWaterMark: 0 },
  );
}

export function chatRoutes(chatService: ChatService, conversations: ConversationService) {
  return createRouter()
    .openapi(starters, async (c) => c.json(await conversations.starters(c.get('viewer'), c.req.valid('param').id), 200))
    .openapi(preview, async (c) => {
      return c.json(await chatService.preview(c.get('viewer'), c.req.valid('param').id, c.req.valid('json')), 200);
    })
    .openapi(chat, async (c) => {
      const startedAt = performance.now();
      // Refusals (429, 404, 400) happen here, before any byte of the stream is sent. The rate
      // limit's hit is counted in the service's first read (rateLimitBeside) and decided first.
      const limit = pendingHit(c);
      const run = await timed(c, 'prepare', () => chatService.start(c.get('viewer'), c.req.valid('param').id, c.req.valid('json'), startedAt, limit));
      const abort = new AbortController();
      const requestSignal = c.req.raw.signal;
      const onRequestAbort = () => abort.abort();
      if (requestSignal.aborted) abort.abort();
      else requestSignal.addEventListener('abort', onRequestAbort, { once: true });
      c.header('Content-Type', 'text/event-stream');
      // Declared, so the body is streamed as it comes: without it @hono/node-server first waits a
      // timer's turn for the whole body, to send it with a length.
      c.header('Transfer-Encoding', 'chunked');
      c.header('Cache-Control', 'no-cache, no-transform');
      c.header('X-Accel-Buffering', 'no');
      const events = run.events(abort.signal);
      return c.body(eventStream(events, abort, () => requestSignal.removeEventListener('abort', onRequestAbort)));
    });
}
