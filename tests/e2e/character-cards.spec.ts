// Character cards in the browser: import a JSON card and a PNG card made by this test, see what
// would be imported first, chat and get the card's greeting and an answer cited from its lorebook
// (offline responder), export (JSON and PNG) and import again with nothing lost, and the message
// each bad file gets.
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import { cardObject, plainPng, pngCard } from '../../src/server/modules/character-cards/card-fixtures';
import { signedInUser } from './support/accounts';
import { listPersonalitiesViaApi, uniqueName } from './support/personalities';

const SCRIPT = '<script>window.__cardHacked = true</script><img src=x onerror="window.__cardHacked = true">';
const LORE = [
  { keys: ['gull', 'airship'], content: 'The Gull is an airship with brass sails, built in the foundries of Vetra.' },
  { keys: ['compass'], content: 'Mirella keeps a storm compass that always points toward lightning.' },
];

function mirella(name: string) {
  return cardObject({
    name,
    description: `A sky pirate of the northern winds. ${SCRIPT}`,
    first_mes: `Ahoy! I am ${name}, captain of the Gull.`,
    personality: 'Bold and loyal.',
    scenario: 'On the deck at dawn.',
    system_prompt: 'Stay in character.',
    entries: LORE,
  });
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v));

async function openImport(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  return page.getByRole('dialog', { name: 'Import a character card' });
}

async function chooseFile(page: Page, name: string, mimeType: string, buffer: Buffer) {
  const dialog = page.getByRole('dialog', { name: 'Import a character card' });
  await dialog.getByLabel('Character card file').setInputFiles({ name, mimeType, buffer });
  return dialog;
}

async function importThroughDialog(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, expectName: string) {
  await openImport(page);
  const dialog = await chooseFile(page, file.name, file.mimeType, file.buffer);
  const preview = dialog.getByRole('region', { name: 'Card preview' });
  await expect(preview.getByTestId('card-preview-name')).toHaveText(expectName);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText(`Imported "${expectName}"`)).toBeVisible();
  await expect(dialog).toBeHidden();
}

async function waitForLorebook(page: Page, id: string) {
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/personalities/${id}/documents`);
        return ((await res.json()) as { documents: { status: string }[] }).documents.map((d) => d.status);
      },
      { timeout: 30_000 },
    )
    .toEqual(['ready']);
}

test('import a JSON card: preview, create, greeting in chat, answer cited from the lorebook', async ({ page }) => {
  test.setTimeout(120_000);
  await signedInUser(page, { label: 'card-json' });
  const name = uniqueName('Captain Mirella');

  await openImport(page);
  const dialog = await chooseFile(page, 'mirella.json', 'application/json', json(mirella(name)));
  const preview = dialog.getByRole('region', { name: 'Card preview' });
  await expect(preview.getByTestId('card-preview-name')).toHaveText(name);
  // Card text is shown as text: the markup appears literally and never runs.
  await expect(preview.getByTestId('card-preview-description')).toHaveText(`A sky pirate of the northern winds. ${SCRIPT}`);
  await expect(preview.getByTestId('card-preview-greeting')).toHaveText(`Ahoy! I am ${name}, captain of the Gull.`);
  await expect(preview.getByTestId('card-preview-lorebook-entries')).toContainText('2 entries');
  // Nothing exists before Import.
  expect((await listPersonalitiesViaApi(page.request)).map((p) => p.name)).not.toContain(name);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText(`Imported "${name}"`)).toBeVisible();

  const card = page.getByRole('article', { name, exact: true });
  await expect(card).toContainText(SCRIPT);
  await expect(card.getByText('Private', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __cardHacked?: boolean }).__cardHacked)).toBeUndefined();

  const { id } = (await listPersonalitiesViaApi(page.request)).find((p) => p.name === name)!;
  await waitForLorebook(page, id);

  await card.getByRole('button', { name: `Start Chat with ${name}` }).click();
  const log = page.getByRole('log', { name: `Conversation with ${name}` });
  await expect(log.getByText(`Ahoy! I am ${name}, captain of the Gull.`)).toBeVisible();
  await expect(log.getByText(/What would you like to talk about\?/)).toHaveCount(0);
  await page.getByRole('tab', { name: 'Text Chat' }).click();
  const box = page.getByRole('textbox', { name: `Message to ${name}` });
  await box.fill('Tell me about the storm compass that points toward lightning');
  await box.press('Enter');
  const reply = log.locator('li[data-sender="personality"]').last();
  await expect(reply).toContainText('storm compass');
  await expect(reply.getByRole('list', { name: 'Document references' })).toContainText(`${name} lorebook.txt (chunk`);
});

test('import a PNG card (avatar shown), export JSON and PNG, and import both back with nothing lost', async ({ page }) => {
  test.setTimeout(150_000);
  await signedInUser(page, { label: 'card-png' });
  const name = uniqueName('Sky Captain');
  await importThroughDialog(page, { name: 'captain.png', mimeType: 'image/png', buffer: pngCard(mirella(name)) }, name);

  const card = page.getByRole('article', { name, exact: true });
  const avatar = card.getByTestId('personality-avatar');
  await expect(avatar).toBeVisible();
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(4);

  // The picture is also shown beside the personality's replies in chat (the greeting here).
  await card.getByRole('button', { name: `Start Chat with ${name}` }).click();
  const log = page.getByRole('log', { name: `Conversation with ${name}` });
  await expect(log.getByText(`Ahoy! I am ${name}, captain of the Gull.`)).toBeVisible();
  const replyAvatar = log.getByTestId('reply-avatar').first();
  await expect.poll(() => replyAvatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(4);
  await page.goto('/');

  const original = (await listPersonalitiesViaApi(page.request)).find((p) => p.name === name)!;
  const originalCard = (await (await page.request.get(`/api/personalities/${original.id}/export.json`)).json()) as { data: Record<string, unknown> };

  // Export through the card's owner actions.
  await card.hover();
  await card.getByRole('button', { name: `Export ${name} as a character card` }).click();
  const exportDialog = page.getByRole('dialog', { name: `Export ${name}` });
  await expect(exportDialog).toContainText('Documents other than the imported lorebook are not exported.');
  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), exportDialog.getByRole('link', { name: 'Export card (JSON)' }).click()]);
  const [pngDownload] = await Promise.all([page.waitForEvent('download'), exportDialog.getByRole('link', { name: 'Export card (PNG)' }).click()]);
  expect(pngDownload.suggestedFilename()).toMatch(/\.png$/);
  const jsonBytes = fs.readFileSync((await jsonDownload.path())!);
  const pngBytes = fs.readFileSync((await pngDownload.path())!);
  await page.keyboard.press('Escape');

  // Import each download again: same name, description, greeting and lorebook.
  for (const file of [
    { name: jsonDownload.suggestedFilename(), mimeType: 'application/json', buffer: jsonBytes },
    { name: pngDownload.suggestedFilename(), mimeType: 'image/png', buffer: pngBytes },
  ]) {
    const before = new Set((await listPersonalitiesViaApi(page.request)).map((p) => p.id));
    await openImport(page);
    const dialog = await chooseFile(page, file.name, file.mimeType, file.buffer);
    const preview = dialog.getByRole('region', { name: 'Card preview' });
    await expect(preview.getByTestId('card-preview-name')).toHaveText(name);
    await expect(preview.getByTestId('card-preview-description')).toHaveText(`A sky pirate of the northern winds. ${SCRIPT}`);
    await expect(preview.getByTestId('card-preview-greeting')).toHaveText(`Ahoy! I am ${name}, captain of the Gull.`);
    await expect(preview.getByTestId('card-preview-lorebook-entries')).toContainText('2 entries');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog).toBeHidden();
    const again = (await listPersonalitiesViaApi(page.request)).find((p) => !before.has(p.id))!;
    expect(again.name).toBe(name);
    const reExported = (await (await page.request.get(`/api/personalities/${again.id}/export.json`)).json()) as { data: Record<string, unknown> };
    expect(reExported.data).toEqual(originalCard.data);
    const docs = (await (await page.request.get(`/api/personalities/${again.id}/documents`)).json()) as { documents: { fileName: string }[] };
    expect(docs.documents.map((d) => d.fileName)).toEqual([`${name} lorebook.txt`]);
  }
  expect((originalCard.data.character_book as { entries: { content: string }[] }).entries.map((e) => e.content)).toEqual(LORE.map((e) => e.content));
});

test('each bad file gets its message and creates nothing', async ({ page }) => {
  test.setTimeout(120_000);
  await signedInUser(page, { label: 'card-bad' });
  const big = Buffer.alloc(10 * 1024 * 1024 + 100, 0x20);
  big.write('{"spec":"chara_card_v2","data":{"name":"Big"}}');
  const cases: [string, string, Buffer, string][] = [
    ['broken.json', 'application/json', Buffer.from('{"spec": "chara_card_v2", "data": {'), 'it is not valid JSON'],
    ['plain.png', 'image/png', plainPng(), 'the PNG has no "chara" or "ccv3" text chunk'],
    ['wrong.json', 'application/json', json({ spec: 'tavern_card_v9', data: { name: 'X' } }), 'its spec is "tavern_card_v9", not chara_card_v2 or chara_card_v3'],
    ['blank.json', 'application/json', json(cardObject({ name: '   ' })), 'its name is blank'],
    ['latin1.json', 'application/json', Buffer.concat([Buffer.from('{"spec":"chara_card_v2","data":{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}}')]), 'the file is not UTF-8 text'],
    ['big.json', 'application/json', big, 'it is larger than 10 MB'],
  ];
  await openImport(page);
  for (const [fileName, mimeType, buffer, reason] of cases) {
    const dialog = await chooseFile(page, fileName, mimeType, buffer);
    await expect(dialog.getByTestId('import-card-error')).toHaveText(`This file is not a character card: ${reason}`);
    await expect(dialog.getByRole('region', { name: 'Card preview' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  }
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  expect((await listPersonalitiesViaApi(page.request)).filter((p) => p.isOwner)).toEqual([]);
});
