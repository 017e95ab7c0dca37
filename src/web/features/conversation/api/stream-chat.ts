// POST /api/personalities/{id}/chat answers a server-sent event stream (EventSource cannot POST),
// read here with the shared parser. Refusals (404, 400 ...) arrive before any event as the usual
// JSON error and are thrown as ApiError; aborting `signal` stops the reply on the server too.
import { readChatStream, type ChatStreamEvent } from '../../../../shared/chat-stream';
import type { ChatRequest } from '../../../../shared/schemas/conversations';
import { api, unwrap } from '../../../lib/api-client';

export interface StreamChatInput {
  personalityId: string;
  request: ChatRequest;
  signal: AbortSignal;
  onEvent: (event: ChatStreamEvent) => void;
}

/** Resolves when the stream ends; rejects with ApiError on a refusal, or the fetch's own error. */
export async function streamChat({ personalityId, request, signal, onEvent }: StreamChatInput): Promise<void> {
  const res = await api.api.personalities[':id'].chat.$post({ param: { id: personalityId }, json: request }, { init: { signal } });
  if (!res.ok || !res.body) {
    await unwrap(res);
    throw new Error('The reply stream is empty');
  }
  await readChatStream(res.body, onEvent);
}
