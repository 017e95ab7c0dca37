// Streams a reply from any OpenAI-compatible chat-completions server (POST {base}/chat/completions
// with stream: true; OpenAI, Ollama, vLLM, llama.cpp, LM Studio): server-sent `data:` lines of
// chat.completion.chunk JSON, ending with `data: [DONE]`.
//
// Written on node:http rather than the AI SDK's streamText: for a plain text stream the SDK's
// chain (fetch, then several web-stream transforms) cost about 6 ms of CPU per reply on the
// server's thread, measured against the loopback fake; this costs a fraction of that, and at ten
// concurrent conversations that thread is what the first token waits for (bench/first-token).
import { providerErrorText } from './provider-error-text';
import http from 'node:http';
import https from 'node:https';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatCompletionsTarget {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /**
   * Longest silence from the model server (waiting for its answer, or between two pieces of a
   * reply) before the reply is given up as failed; LLM_IDLE_TIMEOUT_MS, 90 s by default (a local
   * model may take a minute to load before its first word). Without it a stalled stream never ends.
   */
  idleTimeoutMs?: number;
  /**
   * The longest reply, in tokens (`max_tokens`; LLM_MAX_TOKENS, 0 sends none). Without a bound a
   * reply may run to the model's own ceiling, and every visitor's message could cost that much.
   */
  maxTokens?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 90_000;

/** The model server refused or failed; `status` is its HTTP status when it answered one. */
export class ChatCompletionsError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ChatCompletionsError';
  }
}

/** An error body is read up to this size for its message; the rest is dropped. */
const MAX_ERROR_BODY = 64 * 1024;
// Connections are kept for the next reply, as fetch does.
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

export function createChatCompletions(target: ChatCompletionsTarget) {
  const url = new URL(`${target.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`LLM_BASE_URL must be http(s): ${target.baseUrl}`);
  const transport = url.protocol === 'https:' ? https : http;

  /** Yields the reply's text as it arrives. Ends quietly when `signal` aborts. */
  async function* stream(messages: ChatMessage[], signal: AbortSignal): AsyncGenerator<string> {
    const body = JSON.stringify({ model: target.model, messages, stream: true, ...(target.maxTokens ? { max_tokens: target.maxTokens } : {}) });
    let req!: http.ClientRequest;
    // Set when the idle timeout ended the request (the response then fails as merely "aborted").
    let silent: ChatCompletionsError | undefined;
    const send = () =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        req = transport.request(url, {
          method: 'POST',
          agent: agents[url.protocol as 'http:' | 'https:'],
          signal,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            accept: 'text/event-stream',
            ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
          },
        });
        req.once('response', resolve);
        req.once('error', reject);
        // Socket silence, before the answer and between its pieces alike: the reply fails as any
        // broken one does (an error event, the words so far kept).
        const idleMs = target.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
        req.setTimeout(idleMs, () => {
          silent = new ChatCompletionsError(`the model server sent nothing for ${Math.round(idleMs / 1000)} s`);
          req.destroy(silent);
        });
        req.end(body);
      });
    // Set once the whole reply was read: then the connection goes back to the pool for the next
    // reply (no new TCP or TLS handshake), instead of being torn down.
    let finished = false;
    try {
      let res: http.IncomingMessage;
      try {
        res = await send();
      } catch (err) {
        // A pooled connection the server closed as idle (its keep-alive timeout, e.g. 5 s for
        // uvicorn and Node) just as it was reused: the request never reached the model, so it is
        // sent again once, on a new connection, instead of failing the reply.
        if (signal.aborted || !req.reusedSocket || !isStaleConnection(err)) throw err;
        res = await send();
      }
      res.setEncoding('utf8');
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) throw new ChatCompletionsError(await errorMessage(res, status), status);
      // A server that ignores stream:true answers one chat.completion.
      if (!String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
        const text = completionText(JSON.parse(await readAll(res, Infinity)));
        finished = true;
        if (text) yield text;
        return;
      }
      let pending = '';
      // A chunk with a finish_reason is the model's last: a server that then closes without
      // [DONE] has still given the whole reply.
      let ended = false;
      // The first half of a surrogate pair (an emoji the server split between two chunks) waits for
      // its second: passed on alone it shows as "�" until the next piece arrives.
      let heldHalf = '';
      // Leaving a for-await over a stream destroys it (and with it the pooled socket) unless told
      // not to: at [DONE] the rest is drained instead, below.
      for await (const piece of res.iterator({ destroyOnReturn: false }) as AsyncIterable<string>) {
        pending += piece;
        // Everything one read of the socket brought is passed on as one piece: a model that
        // streams faster than it is read (or a burst after a pause) costs one event and one write
        // downstream, not one per token; a model streaming slowly still arrives token by token.
        let batch = heldHalf;
        heldHalf = '';
        // Lines end in LF, CRLF or a lone CR (all three are SSE); a CR that ends what has arrived
        // may be the first half of a CRLF, so its line waits for the next read.
        let lineEnd: RegExpExecArray | null;
        while ((lineEnd = LINE_END.exec(pending)) !== null) {
          const line = pending.slice(0, lineEnd.index);
          pending = pending.slice(lineEnd.index + lineEnd[0].length);
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          if (data === '[DONE]') {
            // What follows [DONE] (the chunked body's end) is read and dropped, so the socket is
            // reusable; the caller is not kept waiting for it.
            finished = true;
            res.resume();
            // A server that keeps the response open after [DONE] would hold the socket forever.
            const giveUp = setTimeout(() => res.destroy(), 10_000).unref();
            res.once('end', () => clearTimeout(giveUp));
            if (batch) yield batch;
            return;
          }
          let text: string;
          try {
            const chunk = JSON.parse(data);
            text = chunkText(chunk);
            if (finishReason(chunk)) ended = true;
          } catch (err) {
            // The words before a broken or failing chunk are still the reply's.
            if (batch) yield batch;
            throw err;
          }
          batch += text;
        }
        if (endsInHighSurrogate(batch)) {
          heldHalf = batch.slice(-1);
          batch = batch.slice(0, -1);
        }
        if (batch) yield batch;
      }
      // The stream ended on half a pair: it is the model's own text, passed on as it is.
      if (heldHalf) yield heldHalf;
      if (ended) {
        finished = true;
        return;
      }
      throw new ChatCompletionsError('the model server ended the reply before [DONE]');
    } catch (err) {
      if (signal.aborted) return;
      if (silent) throw silent;
      if (err instanceof ChatCompletionsError) throw err;
      throw new ChatCompletionsError(`the model server could not be reached or answered badly: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      // Stopped early (the person pressed Stop or left, or the reply broke off): stop the model too.
      if (!finished) req.destroy();
    }
  }

  return { model: target.model, stream };
}

/** The connection was gone before any answer (reset, or closed under the request). */
function isStaleConnection(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** An SSE line's end: CRLF, LF, or a CR that is not the last character read so far. */
const LINE_END = /\r\n|\n|\r(?!$)/;

function endsInHighSurrogate(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}

/**
 * The text of one streamed chunk; an `error` object in the stream is the server failing mid-reply,
 * and so is a chunk that is itself an error (vLLM's `{"object":"error","message":...}`).
 */
function chunkText(chunk: unknown): string {
  const c = chunk as { object?: unknown; message?: unknown; choices?: { delta?: { content?: unknown } }[]; error?: { message?: unknown } };
  if (c.error) throw new ChatCompletionsError(`the model server failed mid-reply: ${String(c.error.message ?? 'unknown error')}`);
  if (c.object === 'error') throw new ChatCompletionsError(`the model server failed mid-reply: ${String(c.message ?? 'unknown error')}`);
  const content = c.choices?.[0]?.delta?.content;
  return typeof content === 'string' ? content : '';
}

function finishReason(chunk: unknown): string | null {
  const reason = (chunk as { choices?: { finish_reason?: unknown }[] }).choices?.[0]?.finish_reason;
  return typeof reason === 'string' && reason ? reason : null;
}

function completionText(completion: unknown): string {
  const content = (completion as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  return typeof content === 'string' ? content : '';
}

async function errorMessage(res: http.IncomingMessage, status: number): Promise<string> {
  // Its message, shortened, with anything like a key taken out: it goes to the log.
  const detail = providerErrorText(await readAll(res, MAX_ERROR_BODY).catch(() => ''), 300);
  return `the model server answered ${status}${detail ? `: ${detail}` : ''}`;
}

async function readAll(res: http.IncomingMessage, limit: number): Promise<string> {
  let text = '';
  for await (const piece of res as AsyncIterable<string>) {
    text += piece;
    if (text.length > limit) {
      res.destroy();
      break;
    }
  }
  return text;
}
