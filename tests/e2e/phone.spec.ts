// Kindred on a phone (audit Q), in Chromium with a phone's screen and touch: the Documents window
// keeps its title and tabs in place (only its tab scrolls), the text chat leaves room to reach the
// message box in landscape, and the header's title never runs under its buttons.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signedInAdmin, signedInUser } from './support/accounts';
import { createPersonalityViaApi, uniqueName } from './support/personalities';

async function phonePage(browser: Browser, baseURL: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  return context.newPage();
}

test('the Documents window on a phone scrolls its tab, not itself: its title and tabs stay', async ({ browser, baseURL }) => {
  const page = await phonePage(browser, baseURL!, { width: 390, height: 664 });
  await signedInUser(page, { label: 'phone-docs' });
  const name = uniqueName('Ada on the go');
  const { id } = await createPersonalityViaApi(page.request, { name });
  await page.goto(`/?docs=${id}`);
  const dialog = page.getByRole('dialog', { name: `Documents for ${name}` });
  await expect(dialog.getByRole('button', { name: 'Create Voice Clone' })).toBeAttached();
  // Nothing inside stretches the window past the screen (a hidden checkbox input did, by ~1200 px).
  const { scrollHeight, clientHeight } = await dialog.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
  expect(scrollHeight).toBeLessThanOrEqual(clientHeight + 1);
  await expect(dialog.getByRole('tab', { name: 'Documents' })).toBeInViewport();
});

test('text chat in landscape leaves the message box reachable: the log is shorter than the screen', async ({ browser, baseURL }) => {
  const page = await phonePage(browser, baseURL!, { width: 740, height: 360 });
  await signedInUser(page, { label: 'phone-chat' });
  const name = uniqueName('Landscape Ada');
  const { id } = await createPersonalityViaApi(page.request, { name });
  await page.goto(`/?chat=${id}`);
  await page.getByRole('tab', { name: 'Text Chat' }).click();
  const log = page.getByRole('log');
  await expect(log).toBeVisible();
  const header = (await page.getByRole('banner').boundingBox())!;
  const logBox = (await log.boundingBox())!;
  // A swipe on the log scrolls only the log: it must leave part of the screen below the header.
  expect(logBox.height).toBeLessThan(360 - header.height - 40);
  await expect(page.getByRole('textbox', { name: `Message to ${name}` })).toHaveAttribute('enterkeyhint', 'send');
});

test("on the narrowest phones the header's title does not run under its buttons (an admin has the most)", async ({ browser, baseURL }) => {
  for (const width of [320, 375]) {
    const page = await phonePage(browser, baseURL!, { width, height: 640 });
    await signedInAdmin(page);
    await page.goto('/');
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('button', { name: 'Admin' })).toBeVisible();
    await expect(banner.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    // The word itself (it can overflow its link): shown clear of the buttons, or left to the logo.
    const title = (await banner.getByText('Kindred', { exact: true }).boundingBox())!;
    const nav = (await banner.getByRole('navigation', { name: 'Account' }).boundingBox())!;
    expect(title.width <= 1 || title.x + title.width <= nav.x).toBe(true);
    await expect(banner.getByRole('link', { name: 'Kindred' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.context().close();
  }
});
