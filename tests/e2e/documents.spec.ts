// The Documents modal end to end (issue 4) against the built app: the owner uploads a .txt and a
// .pdf, watches them become Ready, reads the chunks, makes one private and deletes the other; a
// share recipient is refused by the server and sees "Access Denied"; and the read-only source
// view (opened by its link, ?docs={id}&source={documentId}&chunk={index}) highlights the chunk.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signedInUser } from './support/accounts';
import { listDocumentsViaApi, shareViaApi, uploadViaApi, waitUntilReadyViaApi } from './support/documents';
import { makePdf } from '../fixtures/document-files';
import { createPersonalityViaApi, uniqueName } from './support/personalities';

async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

test('the owner uploads, watches processing, reads chunks, toggles privacy and deletes', async ({ page }) => {
  await signedInUser(page, { label: 'docs-owner' });
  const name = uniqueName('Mary Somerville');
  const { id } = await createPersonalityViaApi(page.request, { name });
  await page.goto('/');

  // The list follows the server's live stream (polling is only the fallback).
  const stream = page.waitForResponse((r) => r.url().endsWith(`/api/personalities/${id}/documents/events`));
  await card(page, name).getByRole('button', { name: `Docs for ${name}` }).click();
  expect((await stream).headers()['content-type']).toContain('text/event-stream');
  const dialog = page.getByRole('dialog', { name: `Documents for ${name}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'Documents' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('tab', { name: 'User Questions' })).toBeVisible();
  await expect(dialog.getByTestId('document-count')).toHaveText('0');

  await test.step('upload a .txt and a .pdf at once; both become Ready', async () => {
    await dialog.getByLabel('Upload documents').setInputFiles([
      { name: 'orbits.txt', mimeType: 'text/plain', buffer: Buffer.from('On the connexion of the physical sciences.\n\nThe tides follow the moon.') },
      { name: 'mechanism.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf(['The Mechanism of the Heavens', 'Translated from Laplace'])) },
    ]);
    await expect(page.getByText('2 documents uploaded')).toBeVisible();
    await expect(dialog.getByTestId('document-count')).toHaveText('2');
    const list = dialog.getByRole('list', { name: 'Uploaded documents' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    for (const file of ['orbits.txt', 'mechanism.pdf']) {
      await expect(list.getByRole('listitem', { name: file }).getByTestId('document-status')).toHaveText('Ready', { timeout: 30_000 });
    }
  });

  await test.step('the chunk viewer shows the chunks in order, and goes back', async () => {
    await dialog.getByRole('button', { name: 'View chunks of mechanism.pdf' }).click();
    const chunks = dialog.getByRole('list', { name: 'Chunks of mechanism.pdf' });
    await expect(chunks.getByRole('listitem', { name: 'Chunk 1', exact: true })).toContainText('The Mechanism of the Heavens');
    await expect(chunks).toContainText('Translated from Laplace');
    await dialog.getByRole('button', { name: 'Back to Documents' }).click();
    await expect(dialog.getByRole('list', { name: 'Uploaded documents' })).toBeVisible();
  });

  await test.step('privacy toggles, and the server keeps it', async () => {
    const row = dialog.getByRole('listitem', { name: 'mechanism.pdf' });
    const toggle = row.getByRole('switch', { name: 'Private' });
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await expect(toggle).toBeChecked();
    await expect.poll(async () => (await listDocumentsViaApi(page.request, id)).find((d) => d.fileName === 'mechanism.pdf')?.isPrivate).toBe(true);
  });

  await test.step('delete asks first, then removes the document', async () => {
    await dialog.getByRole('button', { name: 'Delete orbits.txt' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Are you sure you want to delete "orbits.txt"? Its chunks will be removed too.');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog.getByRole('listitem', { name: 'orbits.txt' })).toHaveCount(0);
    await expect(dialog.getByTestId('document-count')).toHaveText('1');
    expect((await listDocumentsViaApi(page.request, id)).map((d) => d.fileName)).toEqual(['mechanism.pdf']);
  });

  await test.step('the modal survives a reload (it lives in the URL) and closes', async () => {
    await page.reload();
    await expect(page.getByRole('dialog', { name: `Documents for ${name}` })).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'mechanism.pdf' }).getByRole('switch', { name: 'Private' })).toBeChecked();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).not.toHaveURL(/docs=/);
  });
});

test('a share recipient gets "Access Denied", and the server refuses them too', async ({ browser, baseURL }) => {
  const ownerPage = await newPage(browser, baseURL!);
  const friendPage = await newPage(browser, baseURL!);
  await signedInUser(ownerPage, { label: 'docs-owner' });
  const { email: friendEmail } = await signedInUser(friendPage, { label: 'docs-friend' });
  const name = uniqueName('Caroline Herschel');
  const { id } = await createPersonalityViaApi(ownerPage.request, { name });
  await uploadViaApi(ownerPage.request, id, 'comets.txt', Buffer.from('Eight comets found.'));
  await shareViaApi(ownerPage.request, id, friendEmail);

  // The card offers no Docs button to a non-owner...
  await friendPage.goto('/');
  await expect(card(friendPage, name).getByText('View Only')).toBeVisible();
  await expect(card(friendPage, name).getByRole('button', { name: `Docs for ${name}` })).toHaveCount(0);
  // ...the server refuses the list and the live stream to them...
  expect((await friendPage.request.get(`/api/personalities/${id}/documents`)).status()).toBe(403);
  expect((await friendPage.request.get(`/api/personalities/${id}/documents/events`)).status()).toBe(403);

  // ...and a link to the modal shows "Access Denied" with Close.
  await friendPage.goto(`/?docs=${id}`);
  const denied = friendPage.getByRole('dialog', { name: 'Access Denied' });
  await expect(denied).toContainText("You don't have permission to manage this personality's documents.");
  await expect(denied).not.toContainText('comets.txt');
  // One Close on the page (the footer's), as the spec's "with Close" reads.
  await friendPage.getByRole('button', { name: 'Close' }).click();
  await expect(friendPage.getByRole('dialog')).toHaveCount(0);
  await expect(card(friendPage, name)).toBeVisible();
});

test('the source view highlights the referenced chunk for someone who may see the personality', async ({ browser, baseURL }) => {
  const ownerPage = await newPage(browser, baseURL!);
  const friendPage = await newPage(browser, baseURL!);
  await signedInUser(ownerPage, { label: 'docs-owner' });
  const { email: friendEmail } = await signedInUser(friendPage, { label: 'docs-reader' });
  const name = uniqueName('Emmy Noether');
  const { id } = await createPersonalityViaApi(ownerPage.request, { name });
  // Twelve long paragraphs: several chunks of about 1000 characters each.
  const paragraphs = Array.from(
    { length: 12 },
    (_, i) => `Paragraph ${i + 1}: ${'Symmetry implies a conserved quantity in every physical system we study. '.repeat(8)}`,
  );
  const doc = await uploadViaApi(ownerPage.request, id, 'symmetry.txt', Buffer.from(paragraphs.join('\n\n')));
  await waitUntilReadyViaApi(ownerPage.request, id, doc.id);
  const ready = (await listDocumentsViaApi(ownerPage.request, id)).find((d) => d.id === doc.id)!;
  expect(ready.chunkCount).toBeGreaterThanOrEqual(5);
  await shareViaApi(ownerPage.request, id, friendEmail);

  const chunkIndex = 4;
  await friendPage.goto(`/?docs=${id}&source=${doc.id}&chunk=${chunkIndex}`);
  const dialog = friendPage.getByRole('dialog', { name: `Source document for ${name}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(`symmetry.txt (chunk ${chunkIndex + 1})`)).toBeVisible();
  const referenced = dialog.getByRole('listitem', { name: `Chunk ${chunkIndex + 1}` });
  await expect(referenced).toContainText('Referenced');
  await expect(referenced).toHaveAttribute('aria-current', 'true');
  await expect(referenced).toBeInViewport();
  await expect(dialog.getByText('Referenced', { exact: true })).toHaveCount(1);
  // The first chunk is scrolled out of the way to bring the referenced one into view.
  await expect(dialog.getByRole('listitem', { name: 'Chunk 1', exact: true })).not.toBeInViewport();

  // A chunk index past the end says so in the spec's words.
  await friendPage.goto(`/?docs=${id}&source=${doc.id}&chunk=999`);
  await expect(friendPage.getByText('Unable to load chunk: This referenced chunk is not available.')).toBeVisible();
});

test('the owner sees the questions people asked and deletes those before a date', async ({ browser, baseURL }) => {
  const ownerPage = await newPage(browser, baseURL!);
  const friendPage = await newPage(browser, baseURL!);
  await signedInUser(ownerPage, { label: 'docs-owner' });
  const { email: friendEmail } = await signedInUser(friendPage, { label: 'docs-asker' });
  const name = uniqueName('Hypatia');
  const { id } = await createPersonalityViaApi(ownerPage.request, { name });
  await shareViaApi(ownerPage.request, id, friendEmail);
  // A signed-in person asks through the real chat route (the offline responder answers).
  const asked = await friendPage.request.post(`/api/personalities/${id}/chat`, {
    data: { message: 'What did you teach in Alexandria?' },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(asked.status(), await asked.text()).toBe(200);

  await ownerPage.goto(`/?docs=${id}`);
  const dialog = ownerPage.getByRole('dialog', { name: `Documents for ${name}` });
  await dialog.getByRole('tab', { name: 'User Questions' }).click();
  const question = dialog.getByRole('list', { name: 'Questions' }).getByRole('listitem');
  await expect(question).toHaveCount(1);
  await expect(question).toContainText('What did you teach in Alexandria?');
  await expect(question).toContainText('Registered User');

  await dialog.getByRole('button', { name: 'Delete earlier questions' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select a date');
  // Today's question is kept by a cutoff of today (strictly earlier only)...
  const day = (offset: number) => {
    const d = new Date();
    d.setDate(d.getDate() + offset);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  };
  await dialog.getByLabel('Delete questions asked before').fill(day(0));
  await dialog.getByRole('button', { name: 'Delete earlier questions' }).click();
  await expect(ownerPage.getByText('0 questions deleted')).toBeVisible();
  await expect(question).toHaveCount(1);
  // ...and removed by tomorrow's.
  await dialog.getByLabel('Delete questions asked before').fill(day(1));
  await dialog.getByRole('button', { name: 'Delete earlier questions' }).click();
  await expect(ownerPage.getByText('1 question deleted')).toBeVisible();
  await expect(dialog.getByText(/No questions yet/)).toBeVisible();
});
