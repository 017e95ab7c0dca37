// `npm run bench`: every benchmark under bench/, one after another, each in a child process of its
// own so one's memory and event loop never colour another's figures. Each prints its own figures;
// this never fails on a figure, only when a benchmark itself crashes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchmarks = ['retrieval-quality.bench.ts', 'retrieval-scale.bench.ts', 'first-token.bench.ts', 'ingest.bench.ts', 'upload-memory.bench.ts', 'moderation.bench.ts', 'first-page.bench.ts', 'voice-turn.bench.ts', 'transcription.bench.ts', 'multi-process.bench.ts', 'open-mic.bench.ts', 'vad-detection.bench.ts', 'reply-render.bench.ts'];
const only = process.argv.slice(2);

let failed = 0;
for (const file of benchmarks) {
  if (only.length > 0 && !only.some((name) => file.startsWith(name))) continue;
  console.log(`\n=== ${file} ===`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
  console.log(`(${file}: ${((Date.now() - started) / 1000).toFixed(0)} s${run.status !== 0 ? `, exited ${run.status ?? run.signal}` : ''})`);
}
process.exit(failed > 0 ? 1 : 0);
