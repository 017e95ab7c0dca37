// temporary profiling harness (not committed): in-process, sequential, phase profile
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import inspector from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { startTestServer } from '../src/server/test-support/test-server';
import { startFakeChat } from '../tests/fakes/openai-chat-fake';
import { FUNCTION_WORDS, seedChunks, seededRandom, syntheticChunk, syntheticVocabulary, zipfSampler, percentile } from './chat-bench-support';
import { createChatStreamParser } from '../src/shared/chat-stream';

import { Worker } from 'node:worker_threads';
const trace: { t0: number; t1?: number; what: string }[] = [];
let tracing = false;
const byKey = new Map<string, { t0: number; t1?: number; what: string }>();
const origPost = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (msg: any, ...rest: any[]) {
  if (tracing && msg && typeof msg === 'object' && 'id' in msg) { const e = { t0: performance.now(), what: msg.sql ? String(msg.sql).replace(/\s+/g, ' ').slice(0, 110) : msg.op ?? (msg.texts ? 'EMBED' : '?') }; trace.push(e); byKey.set((msg.sql || msg.op ? 'db' : 'emb') + msg.id, e); }
  return origPost.call(this, msg, ...rest);
};
const origEmit = Worker.prototype.emit;
Worker.prototype.emit = function (ev: any, msg: any, ...rest: any[]) {
  if (tracing && ev === 'message' && msg && typeof msg === 'object' && 'id' in msg) { const e = byKey.get(('vectors' in msg || 'dimensions' in msg ? 'emb' : 'db') + msg.id); if (e && e.t1 === undefined) e.t1 = performance.now(); }
  return origEmit.call(this, ev, msg, ...rest);
} as any;
const CHUNKS = Number(process.env.CHUNKS ?? 10000);
const fake = await startFakeChat({ mode: 'reply', reply: 'Yes, indeed, that is how I remember it.', delayMs: 0 });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-prof-'));
const server = await startTestServer({ dataDir, env: { LLM_BASE_URL: fake.url, LLM_API_KEY: 'b', LLM_MODEL: 'fake-model', LOG_LEVEL: 'warn', RATE_LIMIT_CHAT_PER_MINUTE: '1000000', ...(process.env.EMB ? { EMBEDDING_MODEL: process.env.EMB } : {}) } });
const random = seededRandom(42);
const vocabulary = syntheticVocabulary(5000, random);
const pick = zipfSampler(vocabulary.length, random);
const owner = await server.user();
const created = await owner.post('/api/personalities', { name: 'Bench', description: 'x' });
const pid = created.body.personality.id as string;
await seedChunks(server.database.db, pid, Array.from({ length: CHUNKS }, () => syntheticChunk(vocabulary, pick, 1000)));
await server.database.db.execute(sql`update personalities set sharing_type = 'public', is_public = true where id = ${pid}`);
await server.database.db.execute(sql`analyze`);
const contentWord = () => { for (;;) { const i = pick(); if (i >= FUNCTION_WORDS.length) return vocabulary[i]!; } };
const u = await server.user();
const conv = (await u.post(`/api/personalities/${pid}/conversations`, {})).body.conversation.id;
async function one() {
  const t = performance.now();
  const res = await u.raw(`/api/personalities/${pid}/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: `What do you remember about ${contentWord()} and the ${contentWord()}?`, conversationId: conv }) });
  const reader = res.body!.getReader(); const p = createChatStreamParser(); const d = new TextDecoder(); let first = -1;
  for (;;) { const { value, done } = await reader.read(); if (done) break; for (const e of p.feed(d.decode(value, { stream: true }))) { if (e.type === 'delta' && first < 0) first = performance.now() - t; if (e.type==='error') throw new Error(e.message);} }
  return [first, performance.now() - t - first];
}
for (let i = 0; i < 10; i++) await one();
for (let k = 0; k < 3; k++) { tracing = true; trace.length = 0; const t = performance.now(); const [f, sp2] = await one(); tracing = false; await new Promise(r => setTimeout(r, 50));
  console.log(`--- request: first token at ${f!.toFixed(1)} ms`); for (const e of trace) console.log(`${(e.t0 - t).toFixed(1).padStart(6)} +${e.t1 ? (e.t1 - e.t0).toFixed(1) : '?'}  ${e.what}`); }
const session = new inspector.Session(); session.connect();
if (process.env.PROF) { await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 100 }); await session.post('Profiler.start'); }
const s: number[] = []; const sp: number[] = [];
for (let i = 0; i < 60; i++) { const [a, b] = await one(); s.push(a!); sp.push(b!); await new Promise(r => setTimeout(r, 5)); }
if (process.env.PROF) { const { profile } = await session.post('Profiler.stop'); fs.writeFileSync('/tmp/perf/chat.cpuprofile', JSON.stringify(profile)); }
console.log(`ttft p50 ${percentile(s, .5).toFixed(1)} p95 ${percentile(s, .95).toFixed(1)} span p50 ${percentile(sp, .5).toFixed(1)} load ${os.loadavg()[0]}`);
await server.close(); await fake.close(); fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
