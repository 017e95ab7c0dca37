// Issue 16, row 11: changing the password in one browser signs the same person out in another,
// and the first one is told so.
import { expect, test } from '@playwright/test';
import { getMe, signedInUser, signInViaApi } from './support/accounts';

test('Change Password signs the other browser out and says so', async ({ page, browser }) => {
  const account = await signedInUser(page, { label: 'change-password' });
  const other = await browser.newContext();
  try {
    expect((await signInViaApi(other.request, account.email, account.password)).status()).toBe(200);
    expect((await getMe(other.request)).user?.email).toBe(account.email);

    await page.goto('/');
    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await expect(dialog).toContainText('signs you out on your other devices');
    await dialog.getByLabel('Current Password', { exact: true }).fill(account.password);
    await dialog.getByLabel('New Password', { exact: true }).fill('a-brand-new-password');
    await dialog.getByRole('button', { name: 'Change Password' }).click();

    await expect(page.getByText('Password changed')).toBeVisible();
    await expect(page.getByText('You have been signed out on your other devices.')).toBeVisible();
    // This browser stays signed in; the other one is signed out.
    expect((await getMe(page.request)).user?.email).toBe(account.email);
    expect((await getMe(other.request)).user).toBeNull();
    // The new password works.
    const fresh = await browser.newContext();
    try {
      expect((await signInViaApi(fresh.request, account.email, 'a-brand-new-password')).status()).toBe(200);
    } finally {
      await fresh.close();
    }
  } finally {
    await other.close();
  }
});
