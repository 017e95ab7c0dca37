// Two app processes on one PostgreSQL behind the round-robin proxy (scripts/lib/multi-process-
// cluster.ts), seen from a real browser: the browser is pinned to process B, the upload is made on
// process A, and B's documents modal shows it become Ready. The server-side re-read of the live
// stream is set to 10 minutes, so only LISTEN/NOTIFY can carry A's work to B in time. Runs when
// TEST_DATABASE_URL is set (CI starts Debian's PostgreSQL); needs the web build like every flow.
import { expect, test } from '@playwright/test';
import { startCluster, type Cluster } from '../../scripts/lib/multi-process-cluster';
import { createScratchDatabase } from '../../src/server/test-support/test-server';
import { PASSWORD, uniqueEmail } from './support/accounts';
import { skipOnboarding } from './support/onboarding';

const adminUrl = process.env.TEST_DATABASE_URL;
const ON_A = { 'x-kindred-backend': '0' };

test.skip(!adminUrl, 'needs PostgreSQL (TEST_DATABASE_URL)');
test.describe.configure({ mode: 'serial' });

let cluster: Cluster;
let drop: () => Promise<void>;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const scratch = await createScratchDatabase(adminUrl!);
  drop = scratch.drop;
  cluster = await startCluster({
    databaseUrl: scratch.databaseUrl,
    env: { DOCUMENT_STREAM_POLL_MS: '600000', RATE_LIMIT_AUTH_PER_15MIN: '100000', LOG_LEVEL: 'warn' },
  });
});

test.afterAll(async () => {
  await cluster?.stop();
  await drop?.();
});

// Every request of this browser goes to process B.
test.use({ extraHTTPHeaders: { 'x-kindred-backend': '1' } });

test('an upload made on process A becomes Ready in the documents modal of a browser on process B', async ({ page }) => {
  const url = cluster.url;
  const email = uniqueEmail('multi');
  const headers = { origin: url };
  expect((await page.request.post(`${url}/api/auth/sign-up/email`, { data: { email, password: PASSWORD, name: '' }, headers })).status()).toBe(200);
  expect((await page.request.post(`${url}/api/auth/sign-in/email`, { data: { email, password: PASSWORD }, headers })).status()).toBe(200);
  const me = await page.request.get(`${url}/api/me`);
  expect(me.headers()['x-kindred-backend']).toBe('1');
  await skipOnboarding(page, ((await me.json()) as { user: { id: string } }).user.id);
  const name = `Across Processes ${Date.now().toString(36)}`;
  const created = await page.request.post(`${url}/api/personalities`, { data: { name }, headers: { ...headers, ...ON_A } });
  expect(created.status()).toBe(201);
  expect(created.headers()['x-kindred-backend']).toBe('0');
  const id = ((await created.json()) as { personality: { id: string } }).personality.id;

  await page.goto(url);
  const stream = page.waitForResponse((r) => r.url().endsWith(`/api/personalities/${id}/documents/events`));
  await page.getByRole('article', { name, exact: true }).getByRole('button', { name: `Docs for ${name}` }).click();
  expect((await stream).headers()['x-kindred-backend']).toBe('1');
  const dialog = page.getByRole('dialog', { name: `Documents for ${name}` });
  await expect(dialog.getByTestId('document-count')).toHaveText('0');

  // The upload goes to process A (its own job runner takes the job at once).
  const upload = await page.request.post(`${url}/api/personalities/${id}/documents`, {
    headers: { ...headers, ...ON_A },
    multipart: { files: { name: 'ledger.txt', mimeType: 'text/plain', buffer: Buffer.from('The harbour master kept a blue ledger of the tides.') } },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  expect(upload.headers()['x-kindred-backend']).toBe('0');

  const row = dialog.getByRole('list', { name: 'Uploaded documents' }).getByRole('listitem', { name: 'ledger.txt' });
  await expect(row.getByTestId('document-status')).toHaveText('Ready', { timeout: 30_000 });
});
