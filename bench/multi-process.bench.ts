// List throughput (GET /api/personalities, signed in, 30 personalities) and chat time to first
// token (a zero-latency streamed model, a new saved conversation per person) with one app process vs
// two behind the round-robin proxy, on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL;
// skipped without one). Prints requests/s and latency p50/p95 at a fixed concurrency; never fails
// on a figure. On a 2-core machine the proxy, PostgreSQL and the load generator share the cores
// with the app processes, so expect little gain; with a core per process it scales close to linearly
// until PostgreSQL is the limit.
import { startCluster } from '../scripts/lib/multi-process-cluster';
import { createClient, createScratchDatabase, type TestClient } from '../src/server/test-support/test-server';
import { createChatStreamParser } from '../src/shared/chat-stream';
import { startFakeChat } from '../tests/fakes/openai-chat-fake';

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.log('multi-process: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

function pct(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const fake = await startFakeChat({ mode: 'reply', reply: 'Yes, indeed, that is how I remember it, every word of it.', delayMs: 0 });

/** Request sent to the first streamed word. */
async function firstToken(c: TestClient, personalityId: string, conversationId: string): Promise<number> {
  const started = performance.now();
  const res = await c.raw(`/api/personalities/${personalityId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'What do you remember of the sea?', conversationId }),
  });
  const reader = res.body!.getReader();
  const parser = createChatStreamParser();
  const decoder = new TextDecoder();
  let first = -1;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const e of parser.feed(decoder.decode(value, { stream: true }))) if (e.type === 'delta' && first < 0) first = performance.now() - started;
  }
  if (first < 0) throw new Error(`no token (status ${res.status})`);
  return first;
}

async function chatFigures(url: string, processes: number) {
  // Ten people, each with a personality of their own and a new saved conversation.
  const people: { c: TestClient; conversation: string }[] = [];
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const c = createClient(url);
    await c.signUp(`chat-${i}@example.com`, 'secret-pass');
    await c.signIn(`chat-${i}@example.com`, 'secret-pass');
    ids.push((await c.post('/api/personalities', { name: `Chatty ${i}` })).body.personality.id as string);
    people.push({ c, conversation: (await c.post(`/api/personalities/${ids[i]}/conversations`, {})).body.conversation.id as string });
  }
  await Promise.all(people.map((p, i) => firstToken(p.c, ids[i]!, p.conversation))); // warm-up
  const one: number[] = [];
  for (let r = 0; r < 40; r++) one.push(await firstToken(people[0]!.c, ids[0]!, people[0]!.conversation));
  const ten: number[] = [];
  for (let r = 0; r < 5; r++) ten.push(...(await Promise.all(people.map((p, i) => firstToken(p.c, ids[i]!, p.conversation)))));
  one.sort((a, b) => a - b);
  ten.sort((a, b) => a - b);
  console.log(
    `${processes} process(es): chat first token 1 at a time p50 ${pct(one, 50).toFixed(1)} / p95 ${pct(one, 95).toFixed(1)} ms; 10 at once p50 ${pct(ten, 50).toFixed(1)} / p95 ${pct(ten, 95).toFixed(1)} ms`,
  );
}

async function run(processes: number) {
  const scratch = await createScratchDatabase(adminUrl!);
  const cluster = await startCluster({
    databaseUrl: scratch.databaseUrl,
    processes,
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_PER_15MIN: '100000', RATE_LIMIT_CHAT_PER_MINUTE: '100000', LLM_BASE_URL: fake.url, LLM_API_KEY: 'fake', LLM_MODEL: 'fake-model' },
  });
  try {
    const c = createClient(cluster.url);
    await c.signUp('bench@example.com', 'secret-pass');
    await c.signIn('bench@example.com', 'secret-pass');
    for (let i = 0; i < 30; i++) await c.post('/api/personalities', { name: `Bench ${i}` });
    for (let i = 0; i < 50; i++) await c.get('/api/personalities'); // warm-up
    const latencies: number[] = [];
    const deadline = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < deadline) {
          const t = performance.now();
          const res = await c.get('/api/personalities');
          if (res.status !== 200) throw new Error(`status ${res.status}`);
          latencies.push(performance.now() - t);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    console.log(
      `${processes} process(es) behind the proxy: ${(latencies.length / SECONDS).toFixed(0)} lists/s, p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms (concurrency ${CONCURRENCY}, ${SECONDS} s)`,
    );
    await chatFigures(cluster.url, processes);
  } finally {
    await cluster.stop();
    await scratch.drop();
  }
}

await run(1);
await run(2);
await fake.close();
