// Audio as knowledge, in Chromium: the owner uploads an MP3 in the Documents modal, watches it be
// transcribed (the server sends it to a loopback fake of OpenAI's transcriptions API), hears the
// original from the document, and the offline responder answers from the transcript and cites it
// as "{title} (chunk N)". A failed transcription shows its reason and Retry works.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/shared/messages';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-fake';
import { silentMp3, toneWav } from '../fakes/fake-audio';
import { startKindred, signUpOn, type KindredProcess } from './support/model-server';
import { uniqueEmail, PASSWORD } from './support/accounts';
import { skipOnboarding } from './support/onboarding';

// Chromium plays this WAV as the microphone (the recording widget's flow).
const micWav = path.join(os.tmpdir(), `kindred-e2e-docmic-${process.pid}.wav`);
fs.writeFileSync(micWav, toneWav(20, 48000, 330));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run',
      '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${micWav}`, '--autoplay-policy=no-user-gesture-required'],
  },
});
test.describe.configure({ mode: 'serial' });

const TRANSCRIPT = 'My first dog was a collie called Bran. He herded sheep on the hills above Tobermory every morning.';

let fake: FakeOpenAI;
let app: KindredProcess;

test.beforeAll(async () => {
  fake = await startFakeOpenAI();
  // Speech-to-text only: no language model, so the offline responder quotes the transcript.
  app = await startKindred({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'fake-openai-key', RATE_LIMIT_CHAT_PER_MINUTE: '100000' });
});

test.afterAll(async () => {
  await app?.close();
  await fake?.close();
});

async function ownerWithPersonality(page: Page, name: string) {
  const userId = await signUpOn(page.request, { url: app.url } as never, uniqueEmail('audio-docs'), PASSWORD);
  await skipOnboarding(page, userId);
  const res = await page.request.post(`${app.url}/api/personalities`, { data: { name }, headers: { origin: app.url } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto(app.url);
  await page.getByRole('article', { name, exact: true }).getByRole('button', { name: `Docs for ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Documents for ${name}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('an uploaded speech is transcribed, playable, and cited in a reply; a failed one is retried', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `Morag ${Date.now().toString(36)}`;
  const dialog = await ownerWithPersonality(page, name);
  const form = dialog.getByRole('form', { name: 'Upload audio to transcribe' });
  await expect(form).toContainText(messages.documents.audioHint);
  fake.setAudio({ transcript: TRANSCRIPT, transcribeFail: 'none' });
  const before = fake.transcriptions.length;

  await test.step('a text file is refused in the browser with the spec message', async () => {
    await form.getByLabel('Audio file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('words') });
    await expect(form.getByRole('alert')).toHaveText(messages.documents.audioType);
  });

  await test.step('upload an MP3 with a title; the transcript becomes a Ready document', async () => {
    await form.getByLabel('Audio file').setInputFiles({ name: 'talk.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from(silentMp3(4)) });
    await form.getByLabel('Title (optional)').fill('Tobermory talk');
    await form.getByRole('button', { name: 'Upload Audio' }).click();
    await expect(page.getByText(messages.documents.transcribed('Tobermory talk'))).toBeVisible({ timeout: 30_000 });
    const row = dialog.getByRole('listitem', { name: 'Tobermory talk' });
    await expect(row.getByTestId('document-status')).toHaveText('Ready', { timeout: 30_000 });
    expect(fake.transcriptions.slice(before)).toEqual([expect.objectContaining({ fileType: 'audio/mpeg', fileName: 'speech.mp3' })]);
    // The original audio is served to the owner and the player can load it.
    const player = row.getByLabel('Play Tobermory talk');
    const src = await player.getAttribute('src');
    const audio = await page.request.get(`${app.url}${src}`);
    expect(audio.status()).toBe(200);
    expect(audio.headers()['content-type']).toBe('audio/mpeg');
    expect(Buffer.from(await audio.body()).equals(Buffer.from(silentMp3(4)))).toBe(true);
    await row.getByRole('button', { name: 'View chunks of Tobermory talk' }).click();
    await expect(dialog.getByText('herded sheep on the hills above Tobermory')).toBeVisible();
    await dialog.getByRole('button', { name: 'Back to Documents' }).click();
  });

  await test.step('a failed transcription says why and Retry works', async () => {
    fake.setAudio({ transcribeFail: 'quota' });
    await form.getByLabel('Audio file').setInputFiles({ name: 'second.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from(silentMp3(2)) });
    await form.getByRole('button', { name: 'Upload Audio' }).click();
    const row = dialog.getByRole('listitem', { name: 'second.mp3' });
    // On a busy machine an attempt can outlive its job lease and be taken up again: wait for the final answer.
    await expect(row).toContainText(messages.voice.quotaExceeded, { timeout: 30_000 });
    await expect(row.getByTestId('document-status')).toHaveText('Failed');
    await expect(page.getByText(messages.documents.processingFailed)).toBeVisible();
    fake.setAudio({ transcribeFail: 'none', transcript: 'We took the ferry from Oban to Craignure in the spring of 1984.' });
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect(row.getByTestId('document-status')).toHaveText('Ready', { timeout: 30_000 });
  });

  await test.step('the offline reply answers from the transcript and cites it', async () => {
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('button', { name: `Start Chat with ${name}` }).click();
    await page.getByRole('tab', { name: 'Text Chat' }).click();
    const box = page.getByRole('textbox', { name: `Message to ${name}` });
    await box.fill('What was your first dog called?');
    await box.press('Enter');
    const log = page.getByRole('log', { name: `Conversation with ${name}` });
    const reply = log.locator('li[data-sender="personality"]').last();
    await expect(reply).toContainText('collie called Bran', { timeout: 30_000 });
    await expect(reply.getByRole('list', { name: 'Document references' })).toContainText(/Tobermory talk \(chunk \d+\)/);
  });
});

test('record in the Documents modal, listen back, upload with a title; it is transcribed like a speech', async ({ page }) => {
  const name = `Ewan ${Date.now().toString(36)}`;
  const dialog = await ownerWithPersonality(page, name);
  const widget = dialog.getByRole('region', { name: 'Record audio' });
  fake.setAudio({ transcript: 'We met at the Salen show in 1979, over a pen of Blackface ewes.', transcribeFail: 'none' });
  const before = fake.transcriptions.length;

  await widget.getByRole('button', { name: 'Upload Recording' }).click();
  await expect(page.getByText(messages.documents.noRecording, { exact: true })).toBeVisible();

  await widget.getByRole('button', { name: 'Start Recording' }).click();
  await expect(widget.getByRole('status', { name: 'Recording state' })).toHaveText(/Recording 0:0[2-9]/, { timeout: 10_000 });
  await widget.getByRole('button', { name: 'Stop Recording' }).click();
  await expect(widget.getByRole('status', { name: 'Recording state' })).toHaveText(/Recorded 0:0\d/);

  await test.step('the preview plays the recording', async () => {
    await widget.getByRole('button', { name: 'Play recording' }).click();
    await expect(widget.getByRole('button', { name: 'Pause recording' })).toBeVisible();
    await widget.getByRole('button', { name: 'Pause recording' }).click();
    await expect(widget.getByRole('button', { name: 'Play recording' })).toBeVisible();
  });

  await widget.getByRole('button', { name: 'Upload Recording' }).click();
  await expect(page.getByText(messages.documents.titleRequired, { exact: true })).toBeVisible();
  await widget.getByLabel('Recording title').fill('How we met');
  await widget.getByRole('button', { name: 'Upload Recording' }).click();
  await expect(page.getByText(messages.documents.transcribed('How we met'))).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('listitem', { name: 'How we met' }).getByTestId('document-status')).toHaveText('Ready');
  // What reached speech-to-text is the recording as a 16 kHz mono WAV of about its length.
  const sent = fake.transcriptions.slice(before);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ wav: true, sampleRate: 16000, channels: 1 });
  expect(sent[0]!.bytes).toBeGreaterThan(16000 * 2 * 1.5);
});
