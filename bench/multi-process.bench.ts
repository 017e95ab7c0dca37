// List throughput (GET /api/personalities, signed in, 30 personalities) with one app process vs
// two behind the round-robin proxy, on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL;
// skipped without one). Prints requests/s and latency p50/p95 at a fixed concurrency; never fails
// on a figure. On a 2-core machine the proxy, PostgreSQL and the load generator share the cores
// with the app processes, so expect little gain; with a core per process it scales close to linearly
// until PostgreSQL is the limit.
import { startCluster } from '../scripts/lib/multi-process-cluster';
import { createClient, createScratchDatabase } from '../src/server/test-support/test-server';

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

async function run(processes: number) {
  const scratch = await createScratchDatabase(adminUrl!);
  const cluster = await startCluster({ databaseUrl: scratch.databaseUrl, processes, env: { LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_PER_15MIN: '100000' } });
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
  } finally {
    await cluster.stop();
    await scratch.drop();
  }
}

await run(1);
await run(2);
