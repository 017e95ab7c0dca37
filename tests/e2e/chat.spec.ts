// Text conversation end to end (issue 5) against the built app. On the main server (the embedded
// offline responder): chat about an uploaded document and see the reference, open it and see the
// highlighted chunk, preview then send, reload and resume, pick the conversation up on another
// device, an anonymous visitor chatting with a public personality, and the owner reading the
// questions. On a second server whose model is the loopback fake (support/model-server.ts): stop
// a slow reply (the model call is aborted too), a model failure, and "Send Prompt" sending
// exactly the previewed messages.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { messages } from '../../src/shared/messages';
import { DEFAULT_FAKE_REPLY } from '../fakes/openai-chat-fake';
import { originHeaders, signInViaApi, signedInAdmin, signedInUser, PASSWORD } from './support/accounts';
import { skipOnboarding } from './support/onboarding';
import { createPersonalityViaApi, setSharingViaApi, uniqueName } from './support/personalities';
import { startModelServer, signUpOn, type ModelServer } from './support/model-server';

const NOTES = [
  'My mother raised me on mathematics and logic, hoping to keep me far from the poetry of my father. ' +
    'Tutors came and went; I studied geometry, astronomy and music, and dreamed of a flying machine built from paper, silk and feathers. ' +
    'Illness kept me in bed for long months, and books kept me company through all of them.',
  'I first met Charles Babbage in 1833, at one of his famous evening parties in London. ' +
    'He showed the guests a small working portion of his Difference Engine, and while others stared politely I understood at once what it could do. ' +
    'We wrote to each other for years afterwards, about numbers, machines and the future of calculation.',
  'In my notes on the translation of the Menabrea paper I wrote that the Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves. ' +
    'It might act upon other things besides number, such as the harmonies of music. ' +
    'My longest note set out, step by step, how the machine could compute the Bernoulli numbers.',
  'In later years I kept horses, followed the races with more enthusiasm than prudence, and corresponded with scientists across Europe. ' +
    'I never stopped believing that imagination is as necessary to science as it is to poetry.',
].join('\n\n');

const QUESTION = 'What did the Analytical Engine weave, like the Jacquard loom?';
const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });
const chatLog = (page: Page, name: string) => page.getByRole('log', { name: `Conversation with ${name}` });
const messageBox = (page: Page, name: string) => page.getByRole('textbox', { name: `Message to ${name}` });

async function uploadAndWait(page: Page, personalityId: string, fileName: string, text: string, baseURL = '') {
  const res = await page.request.post(`${baseURL}/api/personalities/${personalityId}/documents`, {
    multipart: { files: { name: fileName, mimeType: 'text/plain', buffer: Buffer.from(text) } },
    headers: baseURL ? { origin: baseURL } : originHeaders(),
  });
  expect(res.status(), await res.text()).toBe(200);
  await expect
    .poll(
      async () => {
        const list = await page.request.get(`${baseURL}/api/personalities/${personalityId}/documents`);
        return ((await list.json()) as { documents: { fileName: string; status: string }[] }).documents.find((d) => d.fileName === fileName)?.status;
      },
      { timeout: 30_000 },
    )
    .toBe('ready');
}

async function openChat(page: Page, name: string) {
  await page.goto('/');
  await card(page, name).getByRole('button', { name: `Start Chat with ${name}` }).click();
  await expect(page.getByRole('heading', { name: `Conversation with ${name}` })).toBeVisible();
  await expect(chatLog(page, name).getByText(`Hello! I'm ${name}. What would you like to talk about?`)).toBeVisible();
  // Self-paced (voice) is the default tab; these flows type.
  await page.getByRole('tab', { name: 'Text Chat' }).click();
}

async function newContextPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

test('chat about a document: reference and source, preview then send, resume after reload and on another device, questions', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const owner = await signedInUser(page, { label: 'chat-owner' });
  const name = uniqueName('Ada Lovelace');
  const { id } = await createPersonalityViaApi(page.request, { name, description: 'Mathematician and writer' });
  await uploadAndWait(page, id, 'engine-notes.txt', NOTES);
  await openChat(page, name);
  const log = chatLog(page, name);

  let chunkLabel = '';
  await test.step('the offline responder answers from the document, with the reference and the mode label', async () => {
    await expect(page.getByTestId('offline-notice')).toHaveText(`${messages.chat.offlineModeLabel}.`);
    await expect(page.getByRole('list', { name: 'Conversation starters' }).getByRole('button')).toHaveCount(4);
    await messageBox(page, name).fill(QUESTION);
    await messageBox(page, name).press('Enter');
    await expect(log.getByText(/weaves algebraic patterns just as the Jacquard loom/).first()).toBeVisible();
    const reply = log.locator('li[data-sender="personality"]').last();
    await expect(reply.getByTestId('responder-mode')).toHaveText('Offline mode');
    const ref = reply.getByRole('list', { name: 'Document references' }).getByRole('button').first();
    await expect(ref).toContainText(/engine-notes\.txt \(chunk \d+\)/);
    await expect(ref).toContainText(/\d+% match/);
    // The citation inside the reply is bold (DO_NOT_READ).
    chunkLabel = (await ref.textContent())!.match(/\(chunk (\d+)\)/)![0];
    await expect(reply.locator('strong[data-do-not-read]').filter({ hasText: chunkLabel })).toBeVisible();
  });

  await test.step('the reference opens the source view with that chunk highlighted', async () => {
    await log.getByRole('list', { name: 'Document references' }).getByRole('button').first().click();
    const dialog = page.getByRole('dialog', { name: `Source document for ${name}` });
    await expect(dialog).toBeVisible();
    const current = dialog.locator('li[aria-current="true"]');
    await expect(current).toHaveAccessibleName(`Chunk ${chunkLabel.match(/\d+/)![0]}`);
    await expect(current).toContainText('Referenced');
    await expect(current).toContainText('Jacquard loom weaves flowers and leaves');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();
    // Still in the same conversation.
    await expect(log.getByText(QUESTION)).toBeVisible();
  });

  await test.step('preview then send', async () => {
    await messageBox(page, name).fill('When did you first meet Charles Babbage?');
    await page.getByRole('button', { name: 'Preview' }).click();
    const dialog = page.getByRole('dialog', { name: 'Prompt preview' });
    await expect(dialog.getByTestId('preview-system-prompt')).toContainText(name);
    await expect(dialog.getByRole('list', { name: 'Referenced documents' })).toContainText(/engine-notes\.txt \(chunk \d+\)\d+% match/);
    const sent = dialog.getByRole('list', { name: 'Messages array' }).getByRole('listitem');
    // system, the first exchange (history, without the greeting), then this question.
    await expect(sent).toHaveCount(4);
    await expect(sent.last()).toContainText('When did you first meet Charles Babbage?');
    await expect(sent.nth(1)).toContainText(QUESTION);
    await dialog.getByRole('button', { name: 'Send Prompt' }).click();
    await expect(dialog).toBeHidden();
    await expect(log.getByText(/I first met Charles Babbage in 1833/).first()).toBeVisible();
    await expect(messageBox(page, name)).toHaveValue('');
  });

  await test.step('a reload resumes the saved conversation', async () => {
    await expect(page.getByRole('combobox', { name: 'Saved conversations' })).toContainText('What did the Analytical Engine weave');
    await page.reload();
    await page.getByRole('tab', { name: 'Text Chat' }).click();
    await expect(log.getByText(QUESTION)).toBeVisible();
    await expect(log.getByText(/I first met Charles Babbage in 1833/).first()).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Saved conversations' })).toContainText('What did the Analytical Engine weave');
    await messageBox(page, name).fill('And the Bernoulli numbers?');
    await messageBox(page, name).press('Enter');
    // Chunks overlap, so the sentence may be quoted from two of them.
    await expect(log.getByText(/compute the Bernoulli numbers/).first()).toBeVisible();
  });

  await test.step('on another device the conversation is in the list and resumes', async () => {
    const other = await newContextPage(browser, baseURL!);
    const signIn = await signInViaApi(other.request, owner.email, PASSWORD);
    expect(signIn.status()).toBe(200);
    await skipOnboarding(other, owner.id);
    await openChat(other, name);
    await other.getByRole('combobox', { name: 'Saved conversations' }).click();
    await other.getByRole('option', { name: /What did the Analytical Engine weave/ }).click();
    const otherLog = chatLog(other, name);
    await expect(otherLog.getByText(QUESTION)).toBeVisible();
    await expect(otherLog.getByText('And the Bernoulli numbers?')).toBeVisible();
    await other.context().close();
  });

  await test.step('the owner sees the questions, from a registered user', async () => {
    await page.goto('/');
    await card(page, name).getByRole('button', { name: `Docs for ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Documents for ${name}` });
    await dialog.getByRole('tab', { name: 'User Questions' }).click();
    const questions = dialog.getByRole('list', { name: 'Questions' }).getByRole('listitem');
    await expect(questions).toHaveCount(3);
    await expect(questions.first()).toContainText('And the Bernoulli numbers?');
    await expect(questions.last()).toContainText(QUESTION);
    await expect(questions.last()).toContainText(messages.questions.registeredUser);
  });
});

test('an anonymous visitor chats with a public personality, and the conversation survives a reload', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const adminPage = await newContextPage(browser, baseURL!);
  await signedInAdmin(adminPage);
  const name = uniqueName('Public Ada');
  const { id } = await createPersonalityViaApi(adminPage.request, { name, description: 'Mathematician' });
  await uploadAndWait(adminPage, id, 'engine-notes.txt', NOTES);
  await setSharingViaApi(adminPage.request, id, 'public');

  // `page` has no session: an anonymous visitor.
  await openChat(page, name);
  const log = chatLog(page, name);
  await expect(page.getByText('Sign in to save your conversations.', { exact: false })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Saved conversations' })).toHaveCount(0);
  await messageBox(page, name).fill(QUESTION);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(log.getByText(/weaves algebraic patterns/).first()).toBeVisible();
  await expect(log.getByRole('list', { name: 'Document references' })).toContainText(/engine-notes\.txt \(chunk \d+\)/);

  await page.reload();
  await page.getByRole('tab', { name: 'Text Chat' }).click();
  await expect(log.getByText(QUESTION)).toBeVisible();
  await expect(log.getByText(/weaves algebraic patterns/).first()).toBeVisible();
  // The next question carries the restored history and is answered.
  await messageBox(page, name).fill('When did you first meet Charles Babbage?');
  await messageBox(page, name).press('Enter');
  await expect(log.getByText(/I first met Charles Babbage in 1833/).first()).toBeVisible();

  // The owner sees the anonymous question without the "Registered User" badge.
  await adminPage.goto('/');
  await card(adminPage, name).getByRole('button', { name: `Docs for ${name}` }).click();
  const dialog = adminPage.getByRole('dialog', { name: `Documents for ${name}` });
  await dialog.getByRole('tab', { name: 'User Questions' }).click();
  const question = dialog.getByRole('list', { name: 'Questions' }).getByRole('listitem').filter({ hasText: QUESTION });
  await expect(question).toBeVisible();
  await expect(question).not.toContainText(messages.questions.registeredUser);
  await adminPage.context().close();
});

test.describe('with a language model (the loopback fake)', () => {
  let server: ModelServer;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await startModelServer();
  });
  test.afterAll(async () => {
    await server?.close();
  });

  test('stop a streaming reply, a model failure, and Send Prompt sending exactly the preview', async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await newContextPage(browser, server.url);
    const userId = await signUpOn(page.request, server, `model-${Date.now().toString(36)}@example.com`, PASSWORD);
    await skipOnboarding(page, userId);
    const name = uniqueName('Grace Hopper');
    const created = await page.request.post(`${server.url}/api/personalities`, { data: { name }, headers: { origin: server.url } });
    expect(created.status()).toBe(201);
    await openChat(page, name);
    const log = chatLog(page, name);
    await expect(page.getByTestId('offline-notice')).toHaveCount(0);

    await test.step('Stop halts a slow reply in the page and on the server, which keeps what was said', async () => {
      server.fake.set({ mode: 'reply', delayMs: 250, reply: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') });
      await messageBox(page, name).fill('Tell me a long story');
      await messageBox(page, name).press('Enter');
      await expect(log.getByText(/word0 word1 word2/)).toBeVisible();
      await page.getByRole('button', { name: 'Stop' }).click();
      const reply = log.locator('li[data-sender="personality"]').last();
      await expect(reply).toHaveAttribute('data-kind', 'stopped');
      await expect(reply.getByText('Stopped')).toBeVisible();
      // The server stopped its model call when the page stopped reading.
      const aborted = await server.fake.waitForAbort(15_000);
      expect(aborted.completed).toBe(false);
      await expect(reply).not.toContainText('word59');
      await expect(page.getByRole('button', { name: 'Send Message' })).toBeVisible();
      // Saved as stopped: a reload shows it the same way.
      await page.reload();
    await page.getByRole('tab', { name: 'Text Chat' }).click();
      await expect(log.locator('li[data-sender="personality"]').last()).toHaveAttribute('data-kind', 'stopped');
      await expect(log.locator('li[data-sender="personality"]').last()).toContainText('word0 word1');
    });

    await test.step('a model failure shows the toast and the in-character reply; the conversation continues', async () => {
      server.fake.set({ mode: 'fail', delayMs: 0 });
      await messageBox(page, name).fill('Are you still there?');
      await messageBox(page, name).press('Enter');
      await expect(page.getByText(messages.chat.aiFailed)).toBeVisible();
      const reply = log.locator('li[data-sender="personality"]').last();
      await expect(reply).toHaveAttribute('data-kind', 'fallback');
      const text = (await reply.locator('p').first().textContent()) ?? '';
      expect(messages.chat.fallbackReplies).toContain(text);
      // A model that breaks off part-way: its words stay, marked Cut off (not Stopped: nobody
      // pressed Stop), and a reload shows the same.
      server.fake.set({ mode: 'break', reply: 'Alpha bravo charlie delta echo foxtrot', delayMs: 0 });
      await messageBox(page, name).fill('Spell it out');
      await messageBox(page, name).press('Enter');
      const cut = log.locator('li[data-sender="personality"]').last();
      await expect(cut).toHaveAttribute('data-kind', 'cut_off');
      await expect(cut).toContainText('Alpha bravo charlie');
      await expect(cut.getByText('Cut off')).toBeVisible();
      await page.reload();
      await page.getByRole('tab', { name: 'Text Chat' }).click();
      await expect(log.locator('li[data-sender="personality"]').last()).toHaveAttribute('data-kind', 'cut_off');
      server.fake.set({ mode: 'reply', reply: DEFAULT_FAKE_REPLY });
      await messageBox(page, name).fill('Try again');
      await messageBox(page, name).press('Enter');
      await expect(log.getByText(DEFAULT_FAKE_REPLY)).toBeVisible();
    });

    await test.step('"Send Prompt" sends the model exactly the previewed messages', async () => {
      await messageBox(page, name).fill('What is a compiler?');
      const previewAnswer = page.waitForResponse((r) => r.url().endsWith('/chat/preview'));
      await page.getByRole('button', { name: 'Preview' }).click();
      const preview = (await (await previewAnswer).json()) as { messagesArray: { role: string; content: string }[] };
      const dialog = page.getByRole('dialog', { name: 'Prompt preview' });
      await expect(dialog.getByRole('list', { name: 'Messages array' }).getByRole('listitem')).toHaveCount(preview.messagesArray.length);
      const before = server.fake.requests.length;
      await dialog.getByRole('button', { name: 'Send Prompt' }).click();
      await expect(log.locator('li[data-sender="personality"]').last()).toHaveAttribute('data-kind', 'message');
      await expect.poll(() => server.fake.requests.length).toBe(before + 1);
      expect(server.fake.requests.at(-1)!.body.messages).toEqual(preview.messagesArray);
      // The failed exchange's in-character reply was never sent back as something the model said.
      for (const fallback of messages.chat.fallbackReplies) expect(JSON.stringify(preview.messagesArray)).not.toContain(fallback);
    });
    await page.context().close();
  });
});
