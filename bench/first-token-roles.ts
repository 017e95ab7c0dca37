// The child processes of bench/first-token.bench.ts: the zero-latency fake model, and the load
// client that signs people up, opens their conversations and times each first token.
import { performance } from 'node:perf_hooks';
import { startFakeChat } from '../tests/fakes/openai-chat-fake';
import { createClient, type TestClient } from '../src/server/test-support/test-server';
import { createChatStreamParser } from '../src/shared/chat-stream';

export interface ClientJob {
  /** 'kindred' (default): the chat route, signed in; 'openai': POST {url}/chat/completions directly. */
  target?: 'kindred' | 'openai';
  url: string;
  personalityId: string;
  concurrency: number;
  rounds: number;
  questions: string[];
  /** After the warm-up exchange: say `{ warmed: true }` and wait for `{ go: true }` before timing. */
  pauseAfterWarmUp?: boolean;
  /**
   * 'continued' (default): each person goes on with one saved conversation, so every message also
   * reads its recent history; 'new': each message starts a new saved conversation (the issue's
   * own set-up), created beside the model call.
   */
  conversation?: 'continued' | 'new';
}

/** The parent's word to start timing, after a job's warm-up. */
export interface Go {
  go: true;
}

export async function runFakeRole(): Promise<void> {
  const fake = await startFakeChat({ mode: 'reply', reply: 'Yes, indeed, that is how I remember it.', delayMs: 0 });
  process.send!({ url: fake.url });
  process.on('disconnect', () => void fake.close().then(() => process.exit(0)));
}

export async function runClientRole(): Promise<void> {
  let asked = 0;
  let go: (() => void) | undefined;
  process.on('message', (job: ClientJob | Go) => {
    if ('go' in job) return void go?.();
    (job.target === 'openai' ? runDirect(job) : run(job)).then(
      ({ samples, spans }) => process.send!({ samples, spans }),
      (err: unknown) => process.send!({ samples: [], spans: [], error: err instanceof Error ? err.message : String(err) }),
    );
  });
  process.on('disconnect', () => process.exit(0));

  async function user(url: string): Promise<TestClient> {
    const c = createClient(url);
    const email = `bench-${process.pid}-${Math.random().toString(36).slice(2)}@example.com`;
    const up = await c.signUp(email, 'secret-pass');
    if (up.status !== 200) throw new Error(`sign-up failed: ${up.status}`);
    const signIn = await c.signIn(email, 'secret-pass');
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status}`);
    return c;
  }

  /** Time to the first content chunk of an OpenAI-style stream, and from it to the last byte. */
  async function directToken(job: ClientJob): Promise<{ first: number; span: number }> {
    const started = performance.now();
    const res = await fetch(`${job.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
      body: JSON.stringify({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: job.questions[asked++ % job.questions.length] }] }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let first = -1;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (first < 0 && decoder.decode(value, { stream: true }).includes('"content"')) first = performance.now() - started;
    }
    if (first < 0) throw new Error(`no content streamed (status ${res.status})`);
    return { first, span: performance.now() - started - first };
  }

  async function runDirect(job: ClientJob): Promise<{ samples: number[]; spans: number[] }> {
    const samples: number[] = [];
    const spans: number[] = [];
    await Promise.all(Array.from({ length: job.concurrency }, () => directToken(job)));
    await Promise.all(
      Array.from({ length: job.concurrency }, async () => {
        for (let r = 0; r < job.rounds; r++) {
          const t = await directToken(job);
          samples.push(t.first);
          spans.push(t.span);
        }
      }),
    );
    return { samples, spans };
  }

  let lastSpan = 0;
  async function firstToken(job: ClientJob, client: TestClient, conversationId: string): Promise<number> {
    const message = job.questions[asked++ % job.questions.length]!;
    const started = performance.now();
    const res = await client.raw(`/api/personalities/${job.personalityId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(job.conversation === 'new' ? { message } : { message, conversationId }),
    });
    const reader = res.body!.getReader();
    const parser = createChatStreamParser();
    const decoder = new TextDecoder();
    let elapsed = -1;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const e of parser.feed(decoder.decode(value, { stream: true }))) {
        if (e.type === 'delta' && elapsed < 0) elapsed = performance.now() - started;
        if (e.type === 'error') throw new Error(`chat failed: ${e.message}`);
      }
    }
    if (elapsed < 0) throw new Error(`no token streamed (status ${res.status})`);
    lastSpan = performance.now() - started - elapsed;
    return elapsed;
  }

  async function run(job: ClientJob): Promise<{ samples: number[]; spans: number[] }> {
    const clients = await Promise.all(Array.from({ length: job.concurrency }, () => user(job.url)));
    const conversations = await Promise.all(
      clients.map(async (c) => (await c.post(`/api/personalities/${job.personalityId}/conversations`, {})).body.conversation.id as string),
    );
    // Warm-up: one exchange each (JIT, connection pools, the context cache's first miss).
    await Promise.all(clients.map((c, i) => firstToken(job, c, conversations[i]!)));
    if (job.pauseAfterWarmUp) {
      await new Promise<void>((resolve) => {
        go = resolve;
        process.send!({ warmed: true });
      });
    }
    const samples: number[] = [];
    const spans: number[] = [];
    await Promise.all(
      clients.map(async (c, i) => {
        for (let r = 0; r < job.rounds; r++) {
          samples.push(await firstToken(job, c, conversations[i]!));
          spans.push(lastSpan);
        }
      }),
    );
    return { samples, spans };
  }
}
