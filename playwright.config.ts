// Browser flows against the BUILT app (`npm run build` first): one Kindred server on a free
// loopback port with a fresh data folder, driven by Debian's Chromium (never `playwright install`,
// which needs the web). Screenshots and traces are kept for failures only.
import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The config is evaluated again in every worker: the environment carries the first evaluation's
// choices so the workers and the server agree on the port and folder.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  '-e',
  "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
]).toString();
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-e2e-'));

const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  // Failure screenshots and traces. E2E_OUTPUT_DIR keeps two runs in one tree from clearing each other's.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  // Flows that record and play speech in real time take most of a minute, and run beside the
  // server suite in `npm test` (scripts/test-all.sh): a cap, not a target.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    video: 'off',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
  projects: [
    // Flows that need the server's initial state (an empty library: no public personality yet)
    // run first, before any other flow can publish one.
    { name: 'fresh-server', testMatch: /empty-library\.spec\.ts$/ },
    { name: 'chromium', testIgnore: /(empty-library|sharing-admin)\.spec\.ts$/, dependencies: ['fresh-server'] },
    // The public catalogue's order is saved against the exact public set: that flow runs after
    // every other one, alone, so parallel flows publishing personalities never make its save stale.
    { name: 'public-ordering', testMatch: /sharing-admin\.spec\.ts$/, dependencies: ['chromium'] },
  ],
  webServer: {
    command: 'node --import tsx src/server/main.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      // E2E_WEB_ROOT tests a build made elsewhere (`vite build --outDir DIR`); default dist/web.
      WEB_ROOT: process.env.E2E_WEB_ROOT ?? '',
      DATABASE_URL: '',
      SMTP_URL: '',
      ADMIN_EMAILS: 'admin@example.com',
      LOG_LEVEL: 'warn',
      // Every flow signs up from 127.0.0.1; the limits themselves are covered by the server suite.
      RATE_LIMIT_AUTH_PER_15MIN: '100000',
      RATE_LIMIT_CHAT_PER_MINUTE: '100000',
      RATE_LIMIT_URL_IMPORT_PER_HOUR: '100000',
      SIGN_IN_FAILURES_BEFORE_BACKOFF: '100000',
      SIGN_IN_FAILURES_PER_ACCOUNT: '100000',
      RATE_LIMIT_FEEDBACK_PER_HOUR: '100000',
      RATE_LIMIT_PERSONALITIES_PER_HOUR: '100000',
      RATE_LIMIT_SHARES_PER_HOUR: '100000',
      // Uploads do not depend on the test machine's free disk (the reserve has its own server test).
      DISK_RESERVE_MB: '0',
    },
  },
});
