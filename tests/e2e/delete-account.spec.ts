// Deleting one's account, as a person does it: from the Change Password dialog, a wrong password
// first (nothing deleted), then the right one. The account, its personalities and its session are
// gone on the server, and the old password no longer signs in.
import { expect, test } from '@playwright/test';
import { getMe, signedInUser, signInViaApi } from './support/accounts';
import { createPersonalityViaApi, uniqueName } from './support/personalities';

test('Delete Account: a wrong password deletes nothing; the right one removes the account and its personalities', async ({ page, browser }) => {
  const account = await signedInUser(page, { label: 'delete-account' });
  const name = uniqueName('Leaving Soon');
  const personality = await createPersonalityViaApi(page.request, { name, description: 'Made by someone about to leave.' });

  await page.goto('/');
  await expect(page.getByText(name)).toBeVisible();
  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  const section = dialog.getByRole('region', { name: 'Delete Account' });
  await expect(section).toContainText('This permanently deletes your account');

  // The wrong password: confirmed, refused by the server, and everything is still there.
  await section.getByLabel('Your password, to confirm deletion').fill('not-my-password');
  await section.getByRole('button', { name: 'Delete Account' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete your account?' });
  await confirm.getByRole('button', { name: 'Delete Account' }).click();
  await expect(section.getByRole('alert')).toContainText(/password/i);
  expect((await getMe(page.request)).user?.email).toBe(account.email);
  expect((await page.request.get(`/api/personalities/${personality.id}`)).status()).toBe(200);

  // The right one.
  await section.getByLabel('Your password, to confirm deletion').fill(account.password);
  await section.getByRole('button', { name: 'Delete Account' }).click();
  await confirm.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sign In', selected: true })).toBeVisible();

  expect((await getMe(page.request)).user).toBeNull();
  const stranger = await browser.newContext();
  try {
    expect((await signInViaApi(stranger.request, account.email, account.password)).status()).not.toBe(200);
    expect((await stranger.request.get(`/api/personalities/${personality.id}`)).status()).toBe(404);
  } finally {
    await stranger.close();
  }
});
