// The personalities dashboard: create, edit and delete as the owner, safe descriptions, and what
// anonymous visitors and other users see. Other flows may publish personalities at any time, so
// these flows only assert about their own ones (the empty states are in empty-library.spec.ts).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { adminAccount, createAccount, signedInUser } from './support/accounts';
import {
  createPersonalityViaApi,
  listPersonalitiesViaApi,
  setSharingViaApi,
  uniqueName,
  type PersonalityAnswer,
} from './support/personalities';

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

async function chooseOption(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(combobox).toContainText(option);
}

test('create: the name is required, and the voice provider sets the voice', async ({ page }) => {
  await signedInUser(page, { label: 'creator' });
  const posts: unknown[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/personalities')) posts.push(r.postDataJSON());
  });
  await page.goto('/');

  // 1. A blank name is refused with the spec's message and nothing is sent.
  await page.getByRole('button', { name: 'Add Personality' }).click();
  const form = page.getByRole('region', { name: 'New personality' });
  await expect(form).toBeVisible();
  await form.getByLabel('Name').fill('   ');
  await form.getByRole('button', { name: 'Create Personality' }).click();
  await expect(form.getByRole('alert')).toHaveText('Please enter a name for the personality');
  await expect(form.getByLabel('Name')).toBeFocused();
  expect(posts).toHaveLength(0);

  // 2. OpenAI: the voice becomes alloy, phonetic transcription is offered, no agent id.
  const ada = uniqueName('Ada Lovelace');
  await form.getByLabel('Name').fill(ada);
  await expect(form.getByRole('alert')).toHaveCount(0);
  await form.getByLabel('Description').fill('First programmer.');
  await form.getByLabel('Behavior instructions').fill('Speak with Victorian courtesy.');
  const provider = form.getByRole('combobox', { name: 'Voice provider' });
  await expect(provider).toContainText('Default voice');
  await chooseOption(page, provider, 'OpenAI');
  await expect(form.getByRole('combobox', { name: 'OpenAI voice' })).toContainText('Alloy (neutral)');
  await expect(form.getByLabel('Agent ID')).toHaveCount(0);
  await form.getByRole('checkbox', { name: 'Enable phonetic transcription' }).check();
  await form.getByRole('button', { name: 'Create Personality' }).click();
  await expect(page.getByText('Personality created successfully')).toBeVisible();
  await expect(form).toHaveCount(0);
  expect(posts.at(-1)).toMatchObject({
    name: ada,
    description: 'First programmer.',
    behaviorInstructions: 'Speak with Victorian courtesy.',
    voiceProvider: 'openai',
    voice: 'alloy',
    enablePhoneticTranscription: true,
  });
  const adaCard = card(page, ada);
  await expect(adaCard).toBeVisible();
  await expect(adaCard.getByText('OpenAI · alloy')).toBeVisible();
  await expect(adaCard.getByText('Private', { exact: true })).toBeVisible();
  await expect(adaCard.getByText('First programmer.')).toBeVisible();
  await expect(adaCard.getByRole('button', { name: `Docs for ${ada}` })).toBeVisible();
  await expect(adaCard.getByText('View Only')).toHaveCount(0);
  await expect(adaCard.getByText('Created by another user')).toHaveCount(0);

  // 3. ElevenLabs: the voice becomes the female preset and an agent id can be given.
  const grace = uniqueName('Grace Hopper');
  await page.getByRole('button', { name: 'Add Personality' }).click();
  await form.getByLabel('Name').fill(grace);
  await chooseOption(page, form.getByRole('combobox', { name: 'Voice provider' }), 'ElevenLabs');
  await expect(form.getByRole('combobox', { name: 'ElevenLabs voice' })).toContainText('Female');
  await expect(form.getByRole('checkbox', { name: 'Enable phonetic transcription' })).toHaveCount(0);
  await form.getByLabel('Agent ID').fill('agent_grace_01');
  await form.getByRole('button', { name: 'Create Personality' }).click();
  await expect(card(page, grace).getByText('ElevenLabs · Female')).toBeVisible();
  expect(posts.at(-1)).toMatchObject({ name: grace, voiceProvider: 'elevenlabs', voice: 'female', agentId: 'agent_grace_01' });

  // 4. Default provider, name only; Cancel on a half-filled form creates nothing.
  const plain = uniqueName('Plain Jane');
  await page.getByRole('button', { name: 'Add Personality' }).click();
  await form.getByLabel('Name').fill('Never saved');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toHaveCount(0);
  await page.getByRole('button', { name: 'Add Personality' }).click();
  await form.getByLabel('Name').fill(plain);
  await form.getByRole('button', { name: 'Create Personality' }).click();
  await expect(card(page, plain).getByText('Default voice')).toBeVisible();
  await expect(card(page, plain).getByText('No description')).toBeVisible();

  // What the server kept, seen after a reload and through the API; the viewer's own private
  // personalities are ordered by name.
  await page.reload();
  const mine = [ada, grace, plain];
  await expect(card(page, plain)).toBeVisible();
  const shown = await page.getByRole('article').evaluateAll((cards) =>
    cards.map((c) => c.querySelector('[data-slot="card-title"]')?.textContent ?? ''),
  );
  expect(shown.filter((n) => mine.includes(n))).toEqual(mine);
  const saved = (await listPersonalitiesViaApi(page.request)).filter((p) => p.isOwner);
  expect(saved.map((p) => p.name)).toEqual(mine);
  expect(saved.find((p) => p.name === grace)).toMatchObject({ voiceProvider: 'elevenlabs', voice: 'female', agentId: 'agent_grace_01' });
  expect(saved.find((p) => p.name === ada)).toMatchObject({ voiceProvider: 'openai', voice: 'alloy' });
});

test('edit inline: a blank name is not saved, a real change is', async ({ page }) => {
  await signedInUser(page, { label: 'editor' });
  const original = await createPersonalityViaApi(page.request, { name: uniqueName('Marie Curie'), description: 'Physicist.' });
  const patches: unknown[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH') patches.push(r.postDataJSON());
  });
  await page.goto('/');

  const before = card(page, original.name);
  await before.hover();
  await before.getByRole('button', { name: `Edit ${original.name}` }).click();
  const form = page.getByRole('form', { name: `Edit ${original.name}` });
  await expect(form.getByLabel('Name')).toHaveValue(original.name);
  await expect(form.getByLabel('Description')).toHaveValue('Physicist.');

  // A blank name: Save does nothing (no request, form stays open with the blank field).
  await form.getByLabel('Name').fill('  ');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveValue('  ');
  expect(patches).toHaveLength(0);

  // A real edit, including a switch to ElevenLabs with an agent id.
  const renamed = uniqueName('Marie Skłodowska-Curie');
  await form.getByLabel('Name').fill(renamed);
  await form.getByLabel('Description').fill('Two Nobel prizes.');
  await form.getByLabel('Behavior instructions').fill('Precise and modest.');
  await chooseOption(page, form.getByRole('combobox', { name: 'Voice provider' }), 'ElevenLabs');
  await expect(form.getByRole('combobox', { name: 'ElevenLabs voice' })).toContainText('Female');
  await form.getByLabel('Agent ID').fill('agent_marie');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Personality updated successfully')).toBeVisible();
  await expect(form).toHaveCount(0);
  expect(patches).toHaveLength(1);

  const after = card(page, renamed);
  await expect(after.getByText('Two Nobel prizes.')).toBeVisible();
  await expect(after.getByText('ElevenLabs · Female')).toBeVisible();
  await expect(card(page, original.name)).toHaveCount(0);

  await page.reload();
  await expect(card(page, renamed).getByText('Two Nobel prizes.')).toBeVisible();
  const saved = (await listPersonalitiesViaApi(page.request)).find((p) => p.id === original.id);
  expect(saved).toMatchObject({
    id: original.id,
    name: renamed,
    behaviorInstructions: 'Precise and modest.',
    voiceProvider: 'elevenlabs',
    agentId: 'agent_marie',
  });

  // Cancel leaves everything as it was.
  await card(page, renamed).hover();
  await card(page, renamed).getByRole('button', { name: `Edit ${renamed}` }).click();
  const again = page.getByRole('form', { name: `Edit ${renamed}` });
  await again.getByLabel('Name').fill('Discarded');
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(card(page, renamed)).toBeVisible();
  expect(patches).toHaveLength(1);
});

test('delete asks for confirmation with the spec text, and removes the personality for good', async ({ page }) => {
  await signedInUser(page, { label: 'deleter' });
  const keep = await createPersonalityViaApi(page.request, { name: uniqueName('Keep Me') });
  const doomed = await createPersonalityViaApi(page.request, { name: uniqueName('Delete Me') });
  await page.goto('/');

  const doomedCard = card(page, doomed.name);
  await doomedCard.hover();
  await doomedCard.getByRole('button', { name: `Delete ${doomed.name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete ${doomed.name}?` });
  await expect(confirm).toContainText(
    'Are you sure you want to delete this personality? This will also delete all associated documents.',
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(doomedCard).toBeVisible();

  await doomedCard.hover();
  await doomedCard.getByRole('button', { name: `Delete ${doomed.name}` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Personality deleted successfully')).toBeVisible();
  await expect(doomedCard).toHaveCount(0);
  await expect(card(page, keep.name)).toBeVisible();

  await page.reload();
  await expect(card(page, keep.name)).toBeVisible();
  await expect(card(page, doomed.name)).toHaveCount(0);
  expect((await page.request.get(`/api/personalities/${doomed.id}`)).status()).toBe(404);
});

test('a description is text: <script> and javascript: stay inert, https links are safe links', async ({ page }) => {
  await signedInUser(page, { label: 'xss' });
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const description =
    'Hello <script>window.__pwned = "script"; alert(1)</script> ' +
    '<img src=x onerror="window.__pwned = \'img\'; alert(2)"> ' +
    'try javascript:window.__pwned=1 or read https://example.org/ada.';
  const p = await createPersonalityViaApi(page.request, { name: uniqueName('Mallory'), description });
  await page.goto('/');

  const c = card(page, p.name);
  await expect(c).toContainText('<script>window.__pwned = "script"; alert(1)</script>');
  await expect(c).toContainText(`<img src=x onerror="window.__pwned = 'img'; alert(2)">`);
  await expect(c.locator('script')).toHaveCount(0);
  await expect(c.locator('img')).toHaveCount(0);

  // Exactly one link: the https one, opened in a new tab without access to this page.
  const links = c.locator('a');
  await expect(links).toHaveCount(1);
  const link = c.getByRole('link', { name: 'https://example.org/ada' });
  await expect(link).toHaveAttribute('href', 'https://example.org/ada');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /\bnoopener\b/);
  await expect(link).toHaveAttribute('rel', /\bnoreferrer\b/);

  // The javascript: text is not a link, and clicking it runs nothing.
  await expect(c.getByRole('link', { name: /javascript/ })).toHaveCount(0);
  await c.getByText('javascript:window.__pwned=1', { exact: false }).click();
  await page.waitForTimeout(200);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await expect(page).toHaveURL(/\/$/);
});

test('anonymous visitors see only public personalities and "Sign In to Create"; others see them as View Only', async ({
  page,
  browser,
}) => {
  // An admin owns one public and one private personality (public needs an admin).
  const adminContext = await browser.newContext();
  const admin = adminContext.request;
  await adminAccount(admin);
  let publicOne: PersonalityAnswer | undefined;
  let privateOne: PersonalityAnswer | undefined;
  try {
    publicOne = await createPersonalityViaApi(admin, { name: uniqueName('Socrates'), description: 'Asks questions.', voiceProvider: 'openai' });
    privateOne = await createPersonalityViaApi(admin, { name: uniqueName('Secret Diary') });
    await setSharingViaApi(admin, publicOne.id, 'public');

    // Anonymous.
    await page.goto('/');
    const pub = card(page, publicOne.name);
    await expect(pub).toBeVisible();
    await expect(pub.getByText('Public', { exact: true })).toBeVisible();
    await expect(pub.getByText('OpenAI · alloy')).toBeVisible();
    await expect(pub.getByText('Created by another user')).toBeVisible();
    await expect(pub.getByRole('button', { name: `Start Chat with ${publicOne.name}` })).toBeVisible();
    await expect(pub.getByText('View Only')).toHaveCount(0);
    await expect(pub.getByRole('button', { name: `Edit ${publicOne.name}` })).toHaveCount(0);
    await expect(pub.getByRole('button', { name: `Delete ${publicOne.name}` })).toHaveCount(0);
    await expect(pub.getByRole('button', { name: `Docs for ${publicOne.name}` })).toHaveCount(0);
    await expect(card(page, privateOne.name)).toHaveCount(0);
    await expect(page.getByText('Secret Diary')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign In to Create' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Personality' })).toHaveCount(0);
    const anonList = await listPersonalitiesViaApi(page.request);
    expect(anonList.map((p) => p.id)).toContain(publicOne.id);
    expect(anonList.map((p) => p.id)).not.toContain(privateOne.id);

    // Start Chat opens the conversation view, and back returns to the grid.
    await pub.getByRole('button', { name: `Start Chat with ${publicOne.name}` }).click();
    await expect(page.getByRole('heading', { name: `Conversation with ${publicOne.name}` })).toBeVisible();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(card(page, publicOne.name)).toBeVisible();

    // "Sign In to Create" goes to /auth.
    await page.getByRole('link', { name: 'Sign In to Create' }).click();
    await expect(page).toHaveURL(/\/auth$/);

    // Another signed-in user: the public one is View Only, the private one stays hidden.
    await createAccount(page.request, { label: 'viewer' });
    await page.goto('/');
    // This account never completed onboarding in this context: close it.
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    const seen = card(page, publicOne.name);
    await expect(seen.getByText('View Only')).toBeVisible();
    await expect(seen.getByText('Created by another user')).toBeVisible();
    await expect(seen.getByRole('button', { name: `Edit ${publicOne.name}` })).toHaveCount(0);
    await expect(card(page, privateOne.name)).toHaveCount(0);
    expect((await page.request.get(`/api/personalities/${privateOne.id}`)).status()).toBe(404);
  } finally {
    // Tidy: other flows list public personalities too.
    if (publicOne) await setSharingViaApi(admin, publicOne.id, 'private');
    await adminContext.close();
  }
});
