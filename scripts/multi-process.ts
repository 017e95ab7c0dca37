// `npm run multi`: Kindred as several processes on one machine, without containers. Two app
// processes on one PostgreSQL (DATABASE_URL, or a throwaway one started with
// scripts/start-test-postgres.sh and removed on exit) and one S3-compatible server (s3rver in a
// temp folder), behind a round-robin proxy on MULTI_PORT (default 3000). Ctrl-C stops everything.
// MULTI_PROCESSES sets the number of app processes. Build the web first (npm run build) to get the UI.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from './lib/multi-process-cluster';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let databaseUrl = process.env.DATABASE_URL;
let stopPostgres = () => {};
if (!databaseUrl) {
  console.error('DATABASE_URL is not set: starting a throwaway PostgreSQL (scripts/start-test-postgres.sh)');
  const out = execFileSync('bash', [path.join(root, 'scripts/start-test-postgres.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  databaseUrl = /TEST_DATABASE_URL=(\S+)/.exec(out)?.[1];
  const dataDir = /TEST_POSTGRES_DATA=(\S+)/.exec(out)?.[1];
  if (!databaseUrl || !dataDir) throw new Error('could not start PostgreSQL');
  stopPostgres = () => void execFileSync('bash', [path.join(root, 'scripts/start-test-postgres.sh'), '--stop', dataDir], { stdio: 'inherit' });
}

const env: Record<string, string> = {};
// Settings for the app processes pass through as they are (LLM_*, OPENAI_*, ...), except those
// this script sets per process.
const cluster = await startCluster({
  databaseUrl,
  processes: Number(process.env.MULTI_PROCESSES ?? 2),
  proxyPort: Number(process.env.MULTI_PORT ?? 3000),
  env,
  echo: true,
}).catch((err: unknown) => {
  stopPostgres();
  throw err;
});
console.log(`Kindred (${cluster.apps.length} processes) is running at ${cluster.url}`);
for (const a of cluster.apps) console.log(`  app ${a.index}: ${a.url} (pid ${a.child.pid})`);
console.log(`  PostgreSQL: ${new URL(databaseUrl).host}; S3 (s3rver): ${cluster.s3.endpoint}, bucket ${cluster.s3.bucket}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  stopPostgres();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
