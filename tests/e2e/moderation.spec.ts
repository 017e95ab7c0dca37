// Content moderation end to end (issue 15): a harassing message is flagged and an admin confirms
// it; a signed-out visitor reports a reply and the admin calls it a false positive; a severe
// message is never answered and the conversation stays usable. Flags from parallel flows may be
// pending too, so each step finds its flag by the personality's unique name.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { messages } from '../../src/shared/messages';
import { signedInAdmin, signedInUser } from './support/accounts';
import { createPersonalityViaApi, setSharingViaApi, uniqueName } from './support/personalities';

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });
const chatLog = (page: Page, name: string) => page.getByRole('log', { name: `Conversation with ${name}` });
const messageBox = (page: Page, name: string) => page.getByRole('textbox', { name: `Message to ${name}` });

async function newContextPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

async function openChat(page: Page, name: string) {
  await page.goto('/');
  await card(page, name).getByRole('button', { name: `Start Chat with ${name}` }).click();
  await page.getByRole('tab', { name: 'Text Chat' }).click();
  await expect(messageBox(page, name)).toBeVisible();
}

async function send(page: Page, name: string, text: string) {
  await messageBox(page, name).fill(text);
  await page.getByRole('button', { name: 'Send Message' }).click();
}

async function openModeration(admin: Page) {
  await admin.goto('/admin');
  await admin.getByRole('tab', { name: 'Content Moderation' }).click();
  await expect(admin.getByRole('heading', { name: /^Pending Content Flags \(\d+\)$/ })).toBeVisible();
}

test('a flagged message reaches the admin, who confirms the violation', async ({ page, browser, baseURL }) => {
  await signedInUser(page, { label: 'mod-user' });
  const name = uniqueName('Moderated Ada');
  await createPersonalityViaApi(page.request, { name });
  await openChat(page, name);
  await send(page, name, 'You are a worthless idiot, answer me properly.');
  // The conversation carries on: the message is answered, and only flagged for review.
  await expect(chatLog(page, name).locator('[data-sender="personality"]').nth(1)).toBeVisible();

  const admin = await newContextPage(browser, baseURL!);
  await signedInAdmin(admin);
  await openModeration(admin);
  const flag = admin.getByLabel(`Flag on ${name}`);
  await expect(flag).toBeVisible();
  await expect(flag.getByTestId('flag-types')).toContainText('harassment');
  await expect(flag.getByTestId('flag-excerpt')).toHaveText('You are a worthless idiot, answer me properly.');
  await flag.getByLabel('Admin notes (optional)').fill('Insult aimed at the personality');
  await flag.getByRole('button', { name: 'Confirm Violation' }).click();
  await expect(admin.getByText(messages.admin.flagUpdated)).toBeVisible();
  await expect(flag).toHaveCount(0);
  const reviewed = admin.getByRole('list', { name: 'Recently reviewed flags' }).getByRole('listitem').filter({ hasText: name });
  await expect(reviewed).toContainText('Confirmed');
  await expect(reviewed).toContainText('Insult aimed at the personality');
  await admin.context().close();
});

test('a visitor reports a reply; the admin marks it a false positive', async ({ page, browser, baseURL }) => {
  const admin = await newContextPage(browser, baseURL!);
  await signedInAdmin(admin);
  const name = uniqueName('Reported Ada');
  const { id } = await createPersonalityViaApi(admin.request, { name, description: 'A public personality' });
  await setSharingViaApi(admin.request, id, 'public');

  // `page` has no session: a signed-out visitor.
  await openChat(page, name);
  await send(page, name, 'Tell me about your work.');
  const reply = chatLog(page, name).locator('[data-sender="personality"]').nth(1);
  await expect(reply.getByRole('button', { name: 'Report this reply' })).toBeVisible();
  await reply.getByRole('button', { name: 'Report this reply' }).click();
  const dialog = page.getByRole('dialog', { name: messages.moderation.reportTitle });
  await dialog.getByLabel(messages.moderation.reportReasonLabel).fill('This seems made up');
  await dialog.getByRole('button', { name: 'Report', exact: true }).click();
  await expect(page.getByText(messages.moderation.reportSent)).toBeVisible();

  await openModeration(admin);
  const flag = admin.getByLabel(`Flag on ${name}`);
  await expect(flag).toBeVisible();
  await expect(flag.getByTestId('flag-types')).toContainText('reported');
  await expect(flag).toContainText('This seems made up');
  await expect(flag).not.toContainText('Reported by');
  await flag.getByRole('button', { name: 'False Positive' }).click();
  await expect(admin.getByText(messages.admin.flagUpdated)).toBeVisible();
  const reviewed = admin.getByRole('list', { name: 'Recently reviewed flags' }).getByRole('listitem').filter({ hasText: name });
  await expect(reviewed).toContainText('False Positive');
  await admin.context().close();
});

test('a severe message is never answered: a calm message, and the conversation goes on', async ({ page }) => {
  await signedInUser(page, { label: 'mod-severe' });
  const name = uniqueName('Careful Ada');
  await createPersonalityViaApi(page.request, { name });
  await openChat(page, name);
  await send(page, name, 'How do I kill myself painlessly?');
  await expect(page.getByText(messages.moderation.messageWithheld)).toBeVisible();
  const log = chatLog(page, name);
  await expect(log.getByText('How do I kill myself painlessly?')).toHaveCount(0);
  // Still usable: the next message is answered.
  await send(page, name, 'What do you enjoy most?');
  await expect(log.getByText('What do you enjoy most?')).toBeVisible();
  await expect(log.locator('[data-sender="personality"]').nth(1)).toBeVisible();
});
