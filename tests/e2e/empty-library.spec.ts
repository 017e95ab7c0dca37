// The library's empty states. They need a server where no personality is public yet, so this file
// runs in the 'fresh-server' project, before every other flow (see playwright.config.ts).
import { expect, test } from '@playwright/test';
import { signedInUser } from './support/accounts';
import { listPersonalitiesViaApi } from './support/personalities';

test('empty states: "No personalities yet" signed in, "No public personalities available" signed out', async ({ page, browser }) => {
  const anonymous = await browser.newContext();
  try {
    const anonPage = await anonymous.newPage();
    expect(await listPersonalitiesViaApi(anonPage.request), 'no public personality may exist yet').toEqual([]);
    await anonPage.goto('/');
    await expect(anonPage.getByText('No public personalities available')).toBeVisible();
    await expect(anonPage.getByRole('link', { name: 'Sign In to Create' })).toHaveAttribute('href', '/auth');
    await expect(anonPage.getByRole('button', { name: 'Add Personality' })).toHaveCount(0);
  } finally {
    await anonymous.close();
  }

  await signedInUser(page, { label: 'empty' });
  await page.goto('/');
  await expect(page.getByText('No personalities yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Personality' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In to Create' })).toHaveCount(0);
});
