// Issue 16, row 3: a page on another port of the same host (same site, so SameSite=Lax cookies
// still go along) tries to write into the signed-in victim's account: a plain form post and a
// credentialed fetch of a multipart upload (both "simple" requests a browser sends without asking).
// The server refuses them by their Origin, and nothing changes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signedInUser } from './support/accounts';
import { listDocumentsViaApi } from './support/documents';
import { createPersonalityViaApi, uniqueName } from './support/personalities';

test('a page from another loopback port cannot create or upload with the victim\'s cookies', async ({ page, baseURL }) => {
  await signedInUser(page, { label: 'xorigin-victim' });
  const name = uniqueName('Caroline Herschel');
  const { id } = await createPersonalityViaApi(page.request, { name });
  const app = new URL(baseURL!);

  const attackerPage = `<!doctype html><title>attacker</title>
    <form id="plant" method="POST" action="${app.origin}/api/personalities" enctype="text/plain" target="sink">
      <input name='{"name":"Planted","x":"' value='"}'>
    </form>
    <iframe name="sink"></iframe>
    <script>
      window.results = [];
      const data = new FormData();
      data.append('file', new Blob(['Planted knowledge'], { type: 'text/plain' }), 'planted.txt');
      fetch('${app.origin}/api/personalities/${id}/documents', { method: 'POST', body: data, credentials: 'include', mode: 'no-cors' })
        .then(() => window.results.push('fetch sent'), () => window.results.push('fetch failed'));
      document.getElementById('plant').submit();
    </script>`;
  const attacker = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attackerPage));
  await new Promise<void>((r) => attacker.listen(0, app.hostname, () => r()));
  const attackerUrl = `http://${app.hostname}:${(attacker.address() as AddressInfo).port}/`;

  const refused: number[] = [];
  page.on('response', (r) => {
    if (r.url().startsWith(`${app.origin}/api/personalities`) && r.request().method() === 'POST') refused.push(r.status());
  });
  try {
    await page.goto(attackerUrl);
    await expect.poll(() => page.evaluate(() => (window as unknown as { results: string[] }).results.length)).toBe(1);
    await expect.poll(() => refused.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(refused.every((s) => s === 403)).toBe(true);
  } finally {
    await new Promise<void>((r) => attacker.close(() => r()));
  }

  // Nothing changed: no planted personality, no planted document.
  const list = await page.request.get('/api/personalities');
  expect(JSON.stringify(await list.json())).not.toContain('Planted');
  expect(await listDocumentsViaApi(page.request, id)).toHaveLength(0);
  // The victim's own page still writes.
  const own = await page.request.post('/api/personalities', { data: { name: uniqueName('Own') } });
  expect(own.status()).toBe(201);
});
