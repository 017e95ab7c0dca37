// The child processes of bench/first-token.bench.ts: the zero-latency fake model, and the load
// client that signs people up, opens their conversations and times each first token.
import { performance } from 'node:perf_hooks';
import { startFakeChat } from '../tests/fakes/openai-chat-fake';
import { createClient, type TestClient } from '../src/server/test-support/test-server';
import { createChatStreamParser } from '../src/shared/chat-stream';

export interface ClientJob {
  url: string;
  personalityId: string;
  concurrency: number;
  rounds: number;
  questions: string[];
}

export async function runFakeRole(): Promise<void> {
  const fake = await startFakeChat({ mode: 'reply', reply: 'Yes, indeed, that is how I remember it.', delayMs: 0 });
  process.send!({ url: fake.url });
  process.on('disconnect', () => void fake.close().then(() => process.exit(0)));
}

export async function runClientRole(): Promise<void> {
  let asked = 0;
  process.on('message', (job: ClientJob) => {
    run(job).then(
      (samples) => process.send!({ samples }),
      (err: unknown) => process.send!({ samples: [], error: err instanceof Error ? err.message : String(err) }),
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

  async function firstToken(job: ClientJob, client: TestClient, conversationId: string): Promise<number> {
    const message = job.questions[asked++ % job.questions.length]!;
    const started = performance.now();
    const res = await client.raw(`/api/personalities/${job.personalityId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, conversationId }),
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
    return elapsed;
  }

  async function run(job: ClientJob): Promise<number[]> {
    const clients = await Promise.all(Array.from({ length: job.concurrency }, () => user(job.url)));
    const conversations = await Promise.all(
      clients.map(async (c) => (await c.post(`/api/personalities/${job.personalityId}/conversations`, {})).body.conversation.id as string),
    );
    // Warm-up: one exchange each (JIT, connection pools, the context cache's first miss).
    await Promise.all(clients.map((c, i) => firstToken(job, c, conversations[i]!)));
    const samples: number[] = [];
    await Promise.all(
      clients.map(async (c, i) => {
        for (let r = 0; r < job.rounds; r++) samples.push(await firstToken(job, c, conversations[i]!));
      }),
    );
    return samples;
  }
}
