// The streaming chat-completions client against a loopback server that answers in the wire
// formats real servers use: SSE split at awkward places, a plain JSON completion, errors.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsError, createChatCompletions, type ChatCompletionsTarget } from './chat-completions';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
let handler: Handler;
let server: http.Server;
let baseUrl: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const chunk = (text: string) => `data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\n\n`;

async function collect(target: ChatCompletionsTarget = { baseUrl, apiKey: 'secret-key', model: 'm' }, signal = new AbortController().signal): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of createChatCompletions(target).stream([{ role: 'user', content: 'Hi' }], signal)) out.push(piece);
  return out;
}

describe('chat completions client', () => {
  it('sends the model, messages and key, and yields deltas even when lines arrive in pieces', async () => {
    let seen: { auth?: string; body?: unknown; path?: string } = {};
    handler = (req, res, body) => {
      seen = { auth: req.headers.authorization, body: JSON.parse(body), path: req.url };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const wire = `: keep-alive\n\n${chunk('Hel')}${chunk('lo')}data: {"choices":[{"delta":{"role":"assistant"}}]}\r\n\r\n${chunk(' world')}data: [DONE]\n\n`;
      // Cut the stream every 7 bytes: lines and JSON split across reads.
      let at = 0;
      const timer = setInterval(() => {
        res.write(wire.slice(at, at + 7));
        at += 7;
        if (at >= wire.length) {
          clearInterval(timer);
          res.end();
        }
      }, 1);
    };
    expect((await collect()).join('')).toBe('Hello world');
    expect(seen.path).toBe('/v1/chat/completions');
    expect(seen.auth).toBe('Bearer secret-key');
    expect(seen.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true });
  });

  it('passes on what one read brought as one piece, and a slow stream piece by piece', async () => {
    // A burst (the whole reply in one write, [DONE] included): one piece, so downstream pays one
    // event and one write for it, not one per token.
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk('One')}${chunk(' two')}${chunk(' three.')}data: [DONE]\n\n`);
    };
    expect(await collect()).toEqual(['One two three.']);
    // Tokens 30 ms apart (each its own read): each goes on as it comes.
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const parts = [chunk('One'), chunk(' two'), chunk(' three.'), 'data: [DONE]\n\n'];
      const next = () => {
        res.write(parts.shift()!);
        if (parts.length) setTimeout(next, 30);
        else res.end();
      };
      next();
    };
    expect(await collect()).toEqual(['One', ' two', ' three.']);
  });

  it('never passes on half an emoji: a surrogate pair split between two chunks goes on whole', async () => {
    // JSON.stringify writes a lone surrogate as a \\ud83d escape, as servers that cut tokens
    // between the halves do.
    const slowly = (parts: string[]) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const next = () => {
        res.write(parts.shift()!);
        if (parts.length) setTimeout(next, 30);
        else res.end();
      };
      next();
    };
    const smile = '\u{1F600}';
    handler = slowly([chunk(`Smile ${smile.slice(0, 1)}`), chunk(`${smile.slice(1)} now`), chunk(smile.slice(0, 1)), chunk(smile.slice(1)), 'data: [DONE]\n\n']);
    const pieces = await collect();
    expect(pieces.join('')).toBe(`Smile ${smile} now${smile}`);
    expect(pieces).toEqual(['Smile ', `${smile} now`, smile]);

    // A stream that ends on half a pair passes it on: it is the model's own text.
    handler = slowly([chunk(`End ${smile.slice(0, 1)}`), 'data: [DONE]\n\n']);
    expect((await collect()).join('')).toBe(`End ${smile.slice(0, 1)}`);
  });

  it('keeps the words read before a chunk that reports an error', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk('Half a')}${chunk(' sentence')}data: ${JSON.stringify({ error: { message: 'overloaded' } })}\n\n`);
    };
    const out: string[] = [];
    await expect(
      (async () => {
        for await (const piece of createChatCompletions({ baseUrl, apiKey: 'k', model: 'm' }).stream([{ role: 'user', content: 'Hi' }], new AbortController().signal)) out.push(piece);
      })(),
    ).rejects.toBeInstanceOf(ChatCompletionsError);
    expect(out).toEqual(['Half a sentence']);
  });

  it("keeps the words before vLLM's own error chunk, and fails the reply instead of taking it as whole", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk('Half')}data: ${JSON.stringify({ object: 'error', message: 'out of memory', type: 'InternalServerError', code: 500 })}\n\ndata: [DONE]\n\n`);
    };
    const out: string[] = [];
    const err = await (async () => {
      for await (const piece of createChatCompletions({ baseUrl, apiKey: 'k', model: 'm' }).stream([{ role: 'user', content: 'Hi' }], new AbortController().signal)) out.push(piece);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChatCompletionsError);
    expect((err as Error).message).toContain('out of memory');
    expect(out).toEqual(['Half']);
  });

  it('reads lines ended by a lone CR (SSE allows it), a CRLF split between two reads included', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`${chunk('Good').replace(/\n/g, '\r')}${chunk(' day').replace(/\n/g, '\r\n').slice(0, -3)}`);
      setTimeout(() => res.end(`\n\r\ndata: [DONE]\r\r`), 5);
    };
    expect((await collect()).join('')).toBe('Good day');
  });

  it('reads a server that ignores stream:true and answers one completion', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'All at once.' } }] }));
    };
    expect(await collect()).toEqual(['All at once.']);
  });

  it("reports the server's own message on an HTTP error, without echoing the key", async () => {
    handler = (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided.' } }));
    };
    const err = (await collect().catch((e: unknown) => e)) as ChatCompletionsError;
    expect(err).toBeInstanceOf(ChatCompletionsError);
    expect(err.status).toBe(401);
    expect(err.message).toBe('the model server answered 401: Incorrect API key provided.');
    expect(err.message).not.toContain('secret-key');
  });

  it('fails on an error in the stream and on a stream cut before [DONE]', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk('Partial')}data: {"error":{"message":"overloaded"}}\n\n`);
    };
    await expect(collect()).rejects.toThrow(/failed mid-reply: overloaded/);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk('Cut'));
    };
    await expect(collect()).rejects.toThrow(/ended the reply before \[DONE\]/);
  });

  it('takes a stream closed after the last chunk (its finish_reason) without [DONE] as a whole reply', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk('All ')}${chunk('of it')}data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })}\n\n`);
    };
    expect((await collect()).join('')).toBe('All of it');
  });

  it('gives up on a model server that falls silent, before its answer or mid-reply, keeping the words so far', async () => {
    const quiet = { baseUrl, model: 'm', idleTimeoutMs: 300 };
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('Three words then'));
      // ...nothing more, and the connection stays open.
    };
    const got: string[] = [];
    const failure = await (async () => {
      for await (const piece of createChatCompletions(quiet).stream([{ role: 'user', content: 'Hi' }], new AbortController().signal)) got.push(piece);
    })().catch((e: unknown) => e);
    expect(got).toEqual(['Three words then']);
    expect(failure).toBeInstanceOf(ChatCompletionsError);
    expect((failure as Error).message).toMatch(/sent nothing for/);
    handler = () => {}; // never answers at all
    await expect(collect(quiet)).rejects.toThrow(/sent nothing for/);
  });

  it('ends quietly when aborted and closes the connection to the model', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('First'));
      res.on('close', closed);
    };
    const controller = new AbortController();
    const out: string[] = [];
    for await (const piece of createChatCompletions({ baseUrl, model: 'm' }).stream([{ role: 'user', content: 'Hi' }], controller.signal)) {
      out.push(piece);
      controller.abort();
    }
    expect(out).toEqual(['First']);
    await serverSawClose;
  });

  it('reuses the connection for the next reply once a reply is read to [DONE], and drops it when the reader stops early', async () => {
    let connections = 0;
    const count = () => connections++;
    server.on('connection', count);
    try {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`${chunk('Again')}data: [DONE]\n\n`);
      };
      for (let i = 0; i < 3; i++) {
        expect(await collect()).toEqual(['Again']);
        // The reply is handed over at [DONE]; the socket rejoins the pool when the body's end is
        // read just after. A person's next message is never sooner than that.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Three replies, one connection (none at all when an earlier test's is still pooled).
      expect(connections).toBeLessThanOrEqual(1);

      let closed!: () => void;
      const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk('Only'));
        res.on('close', closed);
      };
      for await (const piece of createChatCompletions({ baseUrl, model: 'm' }).stream([{ role: 'user', content: 'Hi' }], new AbortController().signal)) {
        expect(piece).toBe('Only');
        break;
      }
      await serverSawClose;
    } finally {
      server.off('connection', count);
    }
  });

  it('sends the request again on a new connection when the pooled one was closed as it was reused, once', async () => {
    // The server drops a kept connection when the next request arrives on it, as one whose
    // keep-alive timeout ran out at that moment does.
    const served = new WeakSet<object>();
    let dropped = 0;
    handler = (req, res) => {
      if (served.has(req.socket)) {
        dropped++;
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk('Fresh')}data: [DONE]\n\n`);
    };
    for (let i = 0; i < 2; i++) {
      expect(await collect()).toEqual(['Fresh']);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(dropped).toBeGreaterThanOrEqual(1);

    // A server that drops every request is not asked again and again.
    let asked = 0;
    handler = (req) => {
      asked++;
      req.socket.destroy();
    };
    await expect(collect()).rejects.toThrow(/could not be reached/);
    expect(asked).toBeLessThanOrEqual(2);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => createChatCompletions({ baseUrl: 'file:///etc', model: 'm' })).toThrow(/http/);
  });
});
