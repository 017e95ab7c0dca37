// A loopback OpenAI-compatible chat-completions server for tests, benchmarks and by hand
// (`npm run fakes`). It speaks the real wire format: POST /v1/chat/completions answers
// `chat.completion` JSON, or with stream:true SSE `data: {chat.completion.chunk}` lines ending in
// `data: [DONE]`. Behaviour is set per server (tests) or over HTTP (POST /__fake/chat):
//   mode 'reply' (fixed text), 'echo' (the reply is the prompt it received, so a test can read it),
//   'fail' (HTTP 500), 'break' (half the reply, then an error chunk in the stream, as servers send
//   when they fail mid-reply), 'stall' (half the reply, then silence with the connection open);
//   delayMs between streamed words (slow streaming, for stop/abort tests).
// Every request is recorded, with whether the client went away before the reply finished.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeChatMode = 'reply' | 'echo' | 'fail' | 'break' | 'stall';

export interface FakeChatSettings {
  mode: FakeChatMode;
  reply: string;
  /** Pause before each streamed word (0: as fast as possible). */
  delayMs: number;
  /** Pause before the first streamed word only (a model's time to first token; default 0). */
  firstTokenDelayMs?: number;
}

export interface RecordedChatRequest {
  body: { model?: string; stream?: boolean; messages?: { role: string; content: unknown }[]; [k: string]: unknown };
  authorization: string | undefined;
  /** The client closed the connection before the reply was complete. */
  aborted: boolean;
  completed: boolean;
}

export interface FakeChat {
  /** Base URL to use as LLM_BASE_URL (ends in /v1). */
  url: string;
  settings: FakeChatSettings;
  requests: RecordedChatRequest[];
  set(settings: Partial<FakeChatSettings>): void;
  /** Resolves once some request has been aborted by its client (or rejects after timeoutMs). */
  waitForAbort(timeoutMs?: number): Promise<RecordedChatRequest>;
  close(): Promise<void>;
}

export const DEFAULT_FAKE_REPLY = 'I am a fake model, and this is my reply.';

/** The echo reply: every message the model received, in order, labelled by role. */
export function echoOf(messages: { role: string; content: unknown }[] = []): string {
  return messages.map((m) => `[${m.role}]\n${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`).join('\n\n');
}

export function createChatHandler(state: { settings: FakeChatSettings; requests: RecordedChatRequest[]; onAbort: () => void }) {
  return async (req: http.IncomingMessage, res: http.ServerResponse, rawBody: string) => {
    let body: RecordedChatRequest['body'];
    try {
      body = JSON.parse(rawBody);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'invalid JSON' } }));
      return;
    }
    const record: RecordedChatRequest = { body, authorization: req.headers.authorization, aborted: false, completed: false };
    state.requests.push(record);
    res.on('close', () => {
      if (!record.completed) {
        record.aborted = true;
        state.onAbort();
      }
    });
    const { mode, reply, delayMs } = state.settings;
    if (mode === 'fail') {
      record.completed = true;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'The fake model failed on purpose', type: 'server_error', code: null } }));
      return;
    }
    const text = mode === 'echo' ? echoOf(body.messages) : reply;
    const id = `chatcmpl-fake-${state.requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'fake-model';
    if (!body.stream) {
      record.completed = true;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    const firstTokenDelayMs = state.settings.firstTokenDelayMs ?? 0;
    if (firstTokenDelayMs > 0) await new Promise((r) => setTimeout(r, firstTokenDelayMs));
    const words = text.match(/\s*\S+\s*/g) ?? [];
    const cutAt = mode === 'break' || mode === 'stall' ? Math.ceil(words.length / 2) : words.length;
    for (const [i, word] of words.entries()) {
      if (i === cutAt) {
        if (mode === 'stall') return; // silence; the client gives up (or goes away)
        record.completed = true;
        res.end(`data: ${JSON.stringify({ error: { message: 'The fake model broke off on purpose', type: 'server_error' } })}\n\n`);
        return;
      }
      if (record.aborted) return;
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      if (record.aborted) return;
      res.write(chunk({ content: word }, null));
    }
    res.write(chunk({}, 'stop'));
    res.write('data: [DONE]\n\n');
    record.completed = true;
    res.end();
  };
}

export async function startFakeChat(initial: Partial<FakeChatSettings> = {}, port = 0): Promise<FakeChat> {
  const settings: FakeChatSettings = { mode: 'reply', reply: DEFAULT_FAKE_REPLY, delayMs: 0, ...initial };
  const requests: RecordedChatRequest[] = [];
  let abortWaiters: (() => void)[] = [];
  const state = {
    settings,
    requests,
    onAbort: () => {
      const waiters = abortWaiters;
      abortWaiters = [];
      for (const w of waiters) w();
    },
  };
  const handleChat = createChatHandler(state);
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'POST' && path === '/v1/chat/completions') return void handleChat(req, res, raw);
      if (req.method === 'GET' && path === '/v1/models') {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model' }] }));
      }
      if (req.method === 'POST' && path === '/__fake/chat') {
        try {
          Object.assign(settings, JSON.parse(raw || '{}'));
        } catch {
          /* keep settings */
        }
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(settings));
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/v1`,
    settings,
    requests,
    set: (s) => Object.assign(settings, s),
    waitForAbort(timeoutMs = 10_000) {
      const already = requests.find((r) => r.aborted);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no request was aborted')), timeoutMs);
        abortWaiters.push(() => {
          clearTimeout(timer);
          resolve(requests.find((r) => r.aborted)!);
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
