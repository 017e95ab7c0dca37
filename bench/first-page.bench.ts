// The first page: `npm run bench -- first-page`. Prints the JavaScript the main page loads first
// (its entry script and modulepreloads, gzipped), then, in Chromium, bytes transferred and time to
// the load event for "/" (median of 5 cold loads), served with the build's precompressed files and
// without them (as before compression). Needs a build (`npm run build`, or WEB_ROOT=folder).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import { startTestServer } from '../src/server/test-support/test-server';

const webRoot = path.resolve(process.env.WEB_ROOT || 'dist/web');
if (!fs.existsSync(path.join(webRoot, 'index.html'))) {
  console.log(`no build in ${webRoot}: run npm run build first`);
  process.exit(1);
}

const html = fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8');
const firstScripts = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map((m) => m[1]!);
let gz = 0;
for (const src of firstScripts) gz += zlib.gzipSync(fs.readFileSync(path.join(webRoot, src.replace(/^\//, ''))), { level: 9 }).length;
console.log(`first JavaScript: ${firstScripts.length} files, ${(gz / 1024).toFixed(1)} KiB gzipped (budget 200 KiB)`);

/** A copy of the build without its .br/.gz files: the server then sends everything as it is. */
function uncompressedCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-web-plain-'));
  fs.cpSync(webRoot, dir, { recursive: true, filter: (f) => !/\.(br|gz)$/.test(f) });
  return dir;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(root: string, label: string) {
  const server = await startTestServer({ start: { webRoot: root }, env: { LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const bytes: number[] = [];
    const loads: number[] = [];
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/`, { waitUntil: 'load' });
      const timing = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        return { load: nav.loadEventStart, bytes: nav.transferSize + resources.reduce((n, r) => n + r.transferSize, 0), requests: resources.length + 1 };
      });
      bytes.push(timing.bytes);
      loads.push(timing.load);
      await context.close();
    }
    console.log(`${label}: ${(median(bytes) / 1024).toFixed(0)} KiB transferred, load event at ${median(loads).toFixed(0)} ms (median of 5)`);
  } finally {
    await browser.close();
    await server.close();
  }
}

await measure(webRoot, 'first page, precompressed (brotli)');
const plain = uncompressedCopy();
try {
  await measure(plain, 'first page, uncompressed (as before)');
} finally {
  fs.rmSync(plain, { recursive: true, force: true });
}
