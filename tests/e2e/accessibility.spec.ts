// Every main screen scanned by axe-core (the accessibility engine browsers' own audits use) in
// Chromium: the library signed out and in, sign-in, the personality form, sharing, the documents
// modal, a conversation in each tab, and every admin tab. A control without an accessible name, a
// label that points nowhere, an ARIA role in the wrong place or text too faint to read fails here,
// named with its selector, before a person with a screen reader (or a test by the spec's words)
// meets it. One thing axe cannot measure is text on the page's candlelight gradient (it reports
// it as needing review): worked out from styles.css, the faintest text there (muted) is 5.5:1 at
// the gradient's darkest, above AA's 4.5:1.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, originHeaders, signedInAdmin, signedInUser } from './support/accounts';
import { createPersonalityViaApi, setSharingViaApi, uniqueName } from './support/personalities';
import { uploadViaApi, waitUntilReadyViaApi } from './support/documents';

/** The rules of WCAG 2.2 A and AA (target sizes among them), as axe tags them, plus its best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** The violations on the page as it is now, one line each: rule, impact, and the elements' selectors. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

async function expectNoViolations(page: Page, screen: string) {
  expect(await violations(page), `axe on ${screen}`).toEqual([]);
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

/** Signs a new person in on `page` with a personality of their own holding one Ready document; its name. */
async function ownerWithDocument(page: Page, base: string, fileName: string, text: string): Promise<string> {
  await signedInUser(page, { label: 'a11y-owner' });
  const name = uniqueName(base);
  const { id } = await createPersonalityViaApi(page.request, { name, description: `${base}, in their own words` });
  const doc = await uploadViaApi(page.request, id, fileName, Buffer.from(text));
  await waitUntilReadyViaApi(page.request, id, doc.id);
  return name;
}

test('the signed-out library and the sign-in screen', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Kindred spirits' })).toBeVisible();
  await expectNoViolations(page, 'the signed-out library');

  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await expectNoViolations(page, 'Sign In');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expectNoViolations(page, 'Sign Up');
});

test("an owner's library, the personality form, sharing and documents", async ({ page }) => {
  const name = await ownerWithDocument(page, 'Grace Hopper', 'nanosecond.txt', 'A nanosecond is the length of wire light travels in a billionth of a second: about thirty centimetres.');

  await page.goto('/');
  await expect(card(page, name)).toBeVisible();
  await expectNoViolations(page, "the owner's library");

  await page.getByRole('button', { name: 'Add Personality' }).click();
  const form = page.getByRole('region', { name: 'New personality' });
  await expect(form).toBeVisible();
  await expectNoViolations(page, 'the new personality form');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toHaveCount(0);

  await card(page, name).getByRole('button', { name: `Share ${name}` }).click();
  await expect(page.getByRole('dialog', { name: `Share ${name}` })).toBeVisible();
  await expectNoViolations(page, 'the Share dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await card(page, name).getByRole('button', { name: `Docs for ${name}` }).click();
  const documents = page.getByRole('dialog', { name: `Documents for ${name}` });
  await expect(documents.getByText('nanosecond.txt')).toBeVisible();
  await expectNoViolations(page, 'the Documents modal');
  await documents.getByRole('tab', { name: 'User Questions' }).click();
  await expect(documents.getByRole('tab', { name: 'User Questions' })).toHaveAttribute('aria-selected', 'true');
  await expectNoViolations(page, "the Documents modal's User Questions");
});

test('a conversation: every tab, and a reply with its reference', async ({ page }) => {
  const name = await ownerWithDocument(page, 'Marie Curie', 'radium.txt', 'We named the second element radium, from the Latin word for ray, in December 1898.');

  await page.goto('/');
  await card(page, name).getByRole('button', { name: `Start Chat with ${name}` }).click();
  await expect(page.getByRole('heading', { name: `Conversation with ${name}` })).toBeVisible();
  await expectNoViolations(page, 'Self-paced Chat');

  await page.getByRole('tab', { name: 'Open Mic Chat' }).click();
  await expect(page.getByRole('tab', { name: 'Open Mic Chat' })).toHaveAttribute('aria-selected', 'true');
  await expectNoViolations(page, 'Open Mic Chat');

  await page.getByRole('tab', { name: 'Text Chat' }).click();
  const box = page.getByRole('textbox', { name: `Message to ${name}` });
  await box.fill('Where does the name radium come from?');
  await box.press('Enter');
  await expect(page.getByRole('log', { name: `Conversation with ${name}` }).getByText(/radium\.txt/).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy reply' }).first()).toBeVisible();
  await expectNoViolations(page, 'Text Chat with a reply');
});

test('every admin tab', async ({ page, browser, baseURL }) => {
  // Something in every list, so their rows are scanned too: another person's pending public
  // request, and a public personality of the admin's own.
  const owner = await browser.newContext({ baseURL });
  await createAccount(owner.request, { label: 'a11y-requester' });
  const requested = await createPersonalityViaApi(owner.request, { name: uniqueName('Alan Turing'), description: 'Mathematician' });
  const request = await owner.request.post(`/api/personalities/${requested.id}/public-requests`, { data: { message: 'He would be good company.' }, headers: originHeaders() });
  expect(request.status(), await request.text()).toBe(201);
  await owner.close();
  await signedInAdmin(page);
  const published = await createPersonalityViaApi(page.request, { name: uniqueName('Rosalind Franklin'), description: 'Chemist' });
  await setSharingViaApi(page.request, published.id, 'public');

  await page.goto('/admin');
  await expect(page.getByRole('article', { name: requested.name })).toBeVisible();
  await expectNoViolations(page, "the admin's Public Requests tab");
  for (const tab of ['Manage Personalities', 'Content Moderation', 'Personality Ordering']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page, `the admin's ${tab} tab`);
  }
});

test('on a phone: the library and a conversation', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signedInUser(page, { label: 'a11y-phone' });
  const name = uniqueName('Ada Lovelace');
  await createPersonalityViaApi(page.request, { name, description: 'Mathematician and writer' });

  await page.goto('/');
  await expect(card(page, name)).toBeVisible();
  await expectNoViolations(page, 'the library on a phone');

  await card(page, name).getByRole('button', { name: `Start Chat with ${name}` }).click();
  await expect(page.getByRole('heading', { name: `Conversation with ${name}` })).toBeVisible();
  await page.getByRole('tab', { name: 'Text Chat' }).click();
  await expect(page.getByRole('textbox', { name: `Message to ${name}` })).toBeVisible();
  await expectNoViolations(page, 'Text Chat on a phone');
});
