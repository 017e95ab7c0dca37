// The frame around the screens: 404, the error fallback, feedback, onboarding and the admin guard.
import { expect, test, type Page, type Request } from '@playwright/test';
import { createAccount, getMe, PASSWORD, signedInAdmin, signedInUser, signOutViaApi } from './support/accounts';
import { onboardingCompletedKey, onboardingShownKey, readStorage } from './support/onboarding';

test.describe('404 and the error fallback', () => {
  test('an unknown path shows the 404 page, and Return to Home goes to /', async ({ page }) => {
    await page.goto('/no/such/place');
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  });

  // A malformed /api/me answer (a display name that is an object) makes the header throw while rendering.
  const brokenMe = { user: { id: 'x', email: 'x@example.com', displayName: {} }, isAdmin: false };
  const fallbackText =
    'We encountered an unexpected error. Please try refreshing the page or contact support if the problem persists.';

  async function breakTheHeader(page: Page) {
    await page.route('**/api/me', (route) => route.fulfill({ json: brokenMe }));
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await expect(page.getByText(fallbackText)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Refresh Page' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
  }

  test('a render error shows the fallback; Try Again recovers without a reload', async ({ page }) => {
    await breakTheHeader(page);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    // While the cause persists, Try Again shows the fallback again (it does not loop or blank out).
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();

    await page.unroute('**/api/me');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In to Create' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  test('Refresh Page reloads the page', async ({ page }) => {
    await breakTheHeader(page);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.unroute('**/api/me');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Refresh Page' }).click()]);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBeUndefined();
  });
});

test.describe('feedback', () => {
  const isFeedbackPost = (r: Request) => r.method() === 'POST' && r.url().endsWith('/api/feedback');

  test('signed in: validation, Submitting..., the toast, and what was sent', async ({ page }) => {
    await signedInUser(page, { label: 'feedback' });
    await page.goto('/');
    const posts: Request[] = [];
    page.on('request', (r) => {
      if (isFeedbackPost(r)) posts.push(r);
    });

    await page.getByRole('banner').getByRole('button', { name: 'Feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share your feedback' });
    await expect(dialog).toBeVisible();
    const submit = dialog.getByRole('button', { name: 'Submit' });
    await expect(submit).toBeDisabled();
    await expect(dialog.getByRole('radio', { name: 'General Feedback' })).toBeChecked();

    // Only spaces: refused with the spec's message, nothing sent.
    const text = dialog.getByRole('textbox', { name: 'Your message' });
    await expect(text).toHaveAttribute('rows', '4');
    await text.fill('   ');
    await submit.click();
    await expect(dialog.getByRole('alert')).toHaveText('Please provide some feedback');
    expect(posts).toHaveLength(0);

    await dialog.getByRole('radio', { name: 'Bug Report' }).check();
    await dialog.getByRole('button', { name: '4 - Very Good' }).click();
    await expect(dialog.getByRole('button', { name: '4 - Very Good' })).toHaveAttribute('aria-pressed', 'true');
    await text.fill('  The voice badge is lovely.  ');
    await expect(dialog.getByRole('alert')).toHaveCount(0);

    // Hold the request so "Submitting..." can be seen, then let it through to the real server.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/feedback', async (route) => {
      await held;
      await route.continue();
    });
    const sent = page.waitForRequest(isFeedbackPost);
    await submit.click();
    const request = await sent;
    await expect(dialog.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    const answer = page.waitForResponse((r) => isFeedbackPost(r.request()));
    release();
    expect((await answer).status()).toBe(201);

    expect(request.postDataJSON()).toMatchObject({ category: 'bug', rating: 4, feedback: 'The voice badge is lovely.' });
    expect(request.postDataJSON().url).toBe(`${new URL(page.url()).origin}/`);
    await expect(page.getByText('Thank you!')).toBeVisible();
    await expect(page.getByText('Your feedback has been submitted successfully')).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // The form was reset.
    await page.getByRole('banner').getByRole('button', { name: 'Feedback' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Your message' })).toHaveValue('');
    await expect(dialog.getByRole('radio', { name: 'General Feedback' })).toBeChecked();
    await expect(dialog.getByRole('button', { name: '4 - Very Good' })).toHaveAttribute('aria-pressed', 'false');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('signed out: the default category and no rating are sent as general and null', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share your feedback' });
    await dialog.getByRole('textbox', { name: 'Your message' }).fill('Works without an account too.\n');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/feedback'));
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/feedback'));
    await dialog.getByRole('button', { name: 'Submit' }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      category: 'general',
      rating: null,
      feedback: 'Works without an account too.',
    });
    expect((await answer).status()).toBe(201);
    await expect(page.getByText('Thank you!')).toBeVisible();
  });

  test('a failed submission says so and keeps the text', async ({ page }) => {
    await page.goto('/');
    await page.route('**/api/feedback', (route) =>
      route.fulfill({ status: 500, json: { error: { code: 'INTERNAL', message: 'boom' } } }),
    );
    await page.getByRole('banner').getByRole('button', { name: 'Feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share your feedback' });
    await dialog.getByRole('textbox', { name: 'Your message' }).fill('Keep me');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Failed to submit feedback. Please try again.')).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Your message' })).toHaveValue('Keep me');
  });
});

test.describe('onboarding', () => {
  const dialog = (page: Page) => page.getByRole('dialog');

  test('shows once after sign-in, walks the 4 steps, and never returns once completed', async ({ page, browser }) => {
    const account = await createAccount(page.request, { label: 'onboard' });
    await signOutViaApi(page.request);

    // Sign in through the screen, as a person does.
    await page.goto('/auth');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/$/);

    await expect(dialog(page)).toHaveAccessibleName('Welcome to Kindred');
    await expect(dialog(page).getByText('1 of 4')).toBeVisible();
    await expect(dialog(page).getByRole('progressbar')).toBeVisible();
    await expect(dialog(page).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await dialog(page).getByRole('button', { name: 'Next' }).click();
    await expect(dialog(page)).toHaveAccessibleName('Teach them with documents');
    await expect(dialog(page).getByText('2 of 4')).toBeVisible();
    await dialog(page).getByRole('button', { name: 'Previous' }).click();
    await expect(dialog(page)).toHaveAccessibleName('Welcome to Kindred');
    await dialog(page).getByRole('button', { name: 'Next' }).click();
    await dialog(page).getByRole('button', { name: 'Next' }).click();
    await expect(dialog(page)).toHaveAccessibleName('Talk with them');
    await expect(dialog(page).getByText('3 of 4')).toBeVisible();
    await dialog(page).getByRole('button', { name: 'Next' }).click();
    await expect(dialog(page)).toHaveAccessibleName("You're ready!");
    await expect(dialog(page).getByText('4 of 4')).toBeVisible();
    await expect(dialog(page).getByRole('button', { name: 'Next' })).toHaveCount(0);

    await dialog(page).getByRole('button', { name: 'Get Started' }).click();
    await expect(dialog(page)).toHaveCount(0);
    expect(await readStorage(page, 'localStorage', onboardingCompletedKey(account.id))).toBe('true');

    await page.reload();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Personality' })).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);

    // A new browser session with the same cookies and local storage: completed means never again.
    const later = await browser.newContext({ storageState: await page.context().storageState() });
    try {
      const laterPage = await later.newPage();
      await laterPage.goto('/');
      await expect(laterPage.getByRole('button', { name: 'Add Personality' })).toBeVisible();
      await expect(laterPage.getByRole('dialog')).toHaveCount(0);
    } finally {
      await later.close();
    }
  });

  test('closed without finishing: not shown again this session, shown again in the next one', async ({ page, browser }) => {
    const account = await createAccount(page.request, { label: 'closer' });
    await page.goto('/');
    await expect(dialog(page)).toHaveAccessibleName('Welcome to Kindred');
    await dialog(page).getByRole('button', { name: 'Next' }).click();
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await expect(dialog(page)).toHaveCount(0);
    expect(await readStorage(page, 'sessionStorage', onboardingShownKey(account.id))).toBe('true');
    expect(await readStorage(page, 'localStorage', onboardingCompletedKey(account.id))).toBeNull();

    await page.reload();
    await expect(page.getByRole('button', { name: 'Add Personality' })).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);
    // Leaving and coming back within the session does not bring it back either.
    await page.goto('/no-such-page');
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page.getByRole('button', { name: 'Add Personality' })).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);

    // Not completed: a new browser session shows it again, from step 1.
    const next = await browser.newContext({ storageState: await page.context().storageState() });
    try {
      const nextPage = await next.newPage();
      await nextPage.goto('/');
      await expect(nextPage.getByRole('dialog')).toHaveAccessibleName('Welcome to Kindred');
      await expect(nextPage.getByRole('dialog').getByText('1 of 4')).toBeVisible();
    } finally {
      await next.close();
    }
  });

  test('not shown to anonymous visitors', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign In to Create' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test.describe('admin', () => {
  test('anonymous visitors are sent from /admin to /auth', async ({ page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
  });

  test('signed-in non-admins have no Admin button and are sent from /admin to /', async ({ page }) => {
    await signedInUser(page, { label: 'notadmin' });
    expect((await getMe(page.request)).isAdmin).toBe(false);
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Admin' })).toHaveCount(0);

    await page.goto('/admin');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Add Personality' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
  });

  test('an admin sees the Admin button and the dashboard, after "Checking permissions..."', async ({ page }) => {
    await signedInAdmin(page);
    await page.goto('/');
    const adminLink = page.getByRole('banner').getByRole('button', { name: 'Admin' });
    await expect(adminLink).toBeVisible();
    await adminLink.click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByText('Manage personalities and user requests')).toBeVisible();

    await page.getByRole('link', { name: 'Back to Main' }).click();
    await expect(page).toHaveURL(/\/$/);

    // Loading /admin directly: the permission check shows while the session is resolved.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/me', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/admin');
    await expect(page.getByText('Checking permissions...')).toBeVisible();
    release();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByText('Checking permissions...')).toHaveCount(0);
  });
});
