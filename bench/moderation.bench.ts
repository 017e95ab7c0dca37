// Offline moderation classifier on its labelled set (bench/moderation-eval-set.ts): precision,
// recall and false positives on benign look-alikes per category, severe content caught, and time
// per message. `npm run bench -- moderation`. Prints figures; never fails on them.
import { performance } from 'node:perf_hooks';
import { classifyOffline } from '../src/server/ai/moderation/offline-classifier';
import { categoryFamily } from '../src/server/ai/moderation/moderation-types';
import { moderationSet, type Family } from './moderation-eval-set';

const THRESHOLD = 0.5;
const families: Family[] = ['harassment', 'hate', 'violence', 'sexual', 'self-harm'];

const results = moderationSet.map((item) => {
  const r = classifyOffline(item.text, { threshold: THRESHOLD });
  return { item, flagged: new Set(r.categories.map((c) => categoryFamily(c.type))), types: r.categories.map((c) => c.type) };
});

console.log(`offline moderation: ${moderationSet.length} labelled texts, threshold ${THRESHOLD}`);
let tpAll = 0;
let harmfulAll = 0;
let fpAll = 0;
let benignAll = 0;
for (const f of families) {
  const harmful = results.filter((r) => r.item.category === f);
  const tp = harmful.filter((r) => r.flagged.has(f)).length;
  const flaggedAs = results.filter((r) => r.flagged.has(f));
  const precision = flaggedAs.length ? flaggedAs.filter((r) => r.item.category === f).length / flaggedAs.length : 1;
  const lookalikes = results.filter((r) => r.item.lookalikeOf === f);
  const fp = lookalikes.filter((r) => r.flagged.size > 0).length;
  tpAll += tp;
  harmfulAll += harmful.length;
  fpAll += fp;
  benignAll += lookalikes.length;
  console.log(
    `  ${f.padEnd(11)} recall ${(tp / harmful.length).toFixed(2)} (${tp}/${harmful.length})  precision ${precision.toFixed(2)}  ` +
      `false positives on look-alikes ${fp}/${lookalikes.length}`,
  );
  if (process.env.BENCH_VERBOSE) {
    for (const r of harmful.filter((x) => !x.flagged.has(f))) console.log(`     missed: ${r.item.text}`);
    for (const r of lookalikes.filter((x) => x.flagged.size > 0)) console.log(`     false positive (${r.types.join(',')}): ${r.item.text}`);
  }
}
const severe = results.filter((r) => r.item.severe);
// MODERATION_SEVERE_TYPES' default (src/server/config.ts): only these are withheld from the model.
const SEVERE_TYPES = ['violence/threat', 'sexual/minors', 'self-harm/instructions'];
const severeCaught = severe.filter((r) => r.types.some((t) => SEVERE_TYPES.includes(t))).length;
console.log(`  overall     recall ${(tpAll / harmfulAll).toFixed(2)}  false positives ${fpAll}/${benignAll} (${((100 * fpAll) / benignAll).toFixed(1)}%)  severe flagged ${severeCaught}/${severe.length}`);

const texts = moderationSet.map((x) => x.text);
for (let i = 0; i < 200; i++) classifyOffline(texts[i % texts.length]!, { threshold: THRESHOLD });
const rounds = 20;
const started = performance.now();
for (let i = 0; i < rounds; i++) for (const t of texts) classifyOffline(t, { threshold: THRESHOLD });
const perMessage = (performance.now() - started) / (rounds * texts.length);
const long = 'The keeper wrote about the storms and the ships that passed the light. '.repeat(60);
const longStarted = performance.now();
for (let i = 0; i < 50; i++) classifyOffline(long, { threshold: THRESHOLD });
console.log(`  time per message ${(perMessage * 1000).toFixed(0)} µs (a ${long.length}-character text: ${(((performance.now() - longStarted) / 50) * 1000).toFixed(0)} µs)`);
