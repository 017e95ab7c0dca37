// Sign up, sign in and sign out through the /auth screen, as a person does it.
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import {
  appOrigin,
  createAccount,
  getMe,
  PASSWORD,
  signedInUser,
  signInViaApi,
  signOutViaApi,
  signUpViaApi,
  uniqueEmail,
} from './support/accounts';

const message = (page: Page) => page.getByTestId('auth-message');

async function openSignUp(page: Page) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
}

test('sign up with the default display name: signed in at once (no mail server), land on / and stay signed in across a reload', async ({ page }) => {
  const email = uniqueEmail('newcomer');
  const localPart = email.split('@')[0]!;

  await openSignUp(page);
  await expect(page.getByText('Password must be at least 6 characters long')).toBeVisible();
  // Display Name left empty: it defaults to the part of the e-mail before the @.
  await expect(page.getByLabel('Display Name')).toHaveValue('');
  await page.getByLabel('Email').fill(email);
  // Not exact: the field labelled Password is the field alone (the toggle is named by its title).
  const password = page.getByLabel('Password');
  await password.fill(PASSWORD);

  // The visibility toggle shows and hides the password without submitting anything.
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await expect(message(page)).toHaveCount(0);

  const signUp = page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-up/email'));
  await page.getByRole('button', { name: 'Sign Up' }).click();
  expect((await signUp).status()).toBe(200);
  // The e2e server has no SMTP_URL: no link could ever come, so sign-up signed the person in.
  await expect(page).toHaveURL(/\/$/);

  // A first sign-in shows onboarding; close it to reach the header.
  await expect(page.getByRole('dialog', { name: 'Welcome to Kindred' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect(header.getByTestId('header-user')).toHaveText(localPart);
  const me = await getMe(page.request);
  expect(me.user).toMatchObject({ email, displayName: localPart });
  expect(me.isAdmin).toBe(false);

  await page.reload();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  expect((await getMe(page.request)).user?.email).toBe(email);

  // Signing out and in again with the same account works as before.
  await signOutViaApi(page.request);
  expect((await signInViaApi(page.request, email)).status()).toBe(200);
});

test('a display name given at sign-up is the one shown', async ({ page }) => {
  const email = uniqueEmail('named');
  await openSignUp(page);
  await page.getByLabel('Display Name').fill('  Grace Hopper  ');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await getMe(page.request)).user?.displayName).toBe('Grace Hopper');
});

test('a short password shows the hint and is refused, in the browser and by the server', async ({ page }) => {
  const email = uniqueEmail('short');
  const signUpCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/auth/sign-up')) signUpCalls.push(r.url());
  });

  await openSignUp(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('abc12');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(message(page)).toHaveText('Password must be at least 6 characters long');
  await expect(message(page)).toHaveAttribute('data-variant', 'destructive');
  expect(signUpCalls).toHaveLength(0);

  // The server holds the same rule for a client that skips the form's check.
  const direct = await signUpViaApi(page.request, email, 'abc12');
  expect(direct.status()).toBe(400);
  expect(await direct.json()).toMatchObject({ message: 'Password must be at least 6 characters long' });
  expect((await signInViaApi(page.request, email, 'abc12')).ok()).toBe(false);
});

test('signing up again with a registered e-mail shows the error', async ({ page }) => {
  const existing = await createAccount(page.request, { label: 'taken' });
  await signOutViaApi(page.request);

  await openSignUp(page);
  // Case and surrounding spaces do not make it a different address.
  await page.getByLabel('Email').fill(`  ${existing.email.toUpperCase()} `);
  await page.getByLabel('Password').fill('another-password');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(message(page)).toHaveText('User already exists. Use another email.');
  await expect(message(page)).toHaveAttribute('data-variant', 'destructive');

  // The original password still works: the duplicate changed nothing.
  expect((await signInViaApi(page.request, existing.email, PASSWORD)).status()).toBe(200);
  expect((await signInViaApi(page.request, existing.email, 'another-password')).ok()).toBe(false);
});

test('a wrong password shows the error and keeps the visitor on /auth, signed out', async ({ page }) => {
  const account = await createAccount(page.request, { label: 'wrongpw' });
  await signOutViaApi(page.request);

  await page.goto('/auth');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('not-the-password');
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-in/email'));
  await page.getByRole('button', { name: 'Sign In' }).click();
  expect((await answer).status()).toBe(401);
  await expect(message(page)).toHaveText('Invalid email or password');
  await expect(message(page)).toHaveAttribute('data-variant', 'destructive');
  await expect(page).toHaveURL(/\/auth$/);
  expect((await getMe(page.request)).user).toBeNull();

  // Switching tabs clears the message; the right password then signs in.
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await expect(message(page)).toHaveCount(0);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await getMe(page.request)).user?.email).toBe(account.email);
});

test('sign out ends the session on the server and goes to /auth', async ({ page, context }) => {
  const account = await signedInUser(page, { label: 'leaver' });
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  const cookies = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  // Another client replaying this browser's cookie is the same session... until sign-out.
  const replay = await playwrightRequest.newContext({ baseURL: appOrigin(), extraHTTPHeaders: { cookie: cookies } });
  try {
    expect((await getMe(replay)).user?.email).toBe(account.email);

    await header.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    expect((await getMe(page.request)).user).toBeNull();
    expect((await getMe(replay)).user).toBeNull();
  } finally {
    await replay.dispose();
  }

  // Back on the main screen the visitor is anonymous.
  await page.goto('/');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In to Create' })).toBeVisible();
});

test('a signed-in visitor to /auth is sent to /', async ({ page }) => {
  await signedInUser(page, { label: 'returning' });
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveCount(0);
});
