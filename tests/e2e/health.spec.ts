// Smoke: the built app is served with the API on one origin.
import { expect, test } from '@playwright/test';

test('the API answers /api/health and the page loads with its title', async ({ request, page }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true, database: 'pglite' });

  await page.goto('/');
  await expect(page).toHaveTitle(/Kindred/);
  await expect(page.locator('#root')).not.toBeEmpty();
});
