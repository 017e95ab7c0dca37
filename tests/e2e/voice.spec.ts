// Self-paced voice chat in Chromium with a real microphone path: Chromium plays a WAV file as the
// microphone (--use-file-for-fake-audio-capture), the page records it through the AudioWorklet,
// and the app's server sends it to a loopback fake of OpenAI's transcriptions API; the reply
// streams from the fake model and each sentence is fetched from the fake speech API and played
// by <audio>. Played sentences are counted from the media elements' "ended" events (the page is
// instrumented, the product is not), so a flag cannot pass for audio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/shared/messages';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-fake';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fakes/elevenlabs-fake';
import { startFakeAzureSpeech, type FakeAzure } from '../fakes/azure-speech-fake';
import { silentMp3, toneWav } from '../fakes/fake-audio';
import { startKindred, signUpOn, voiceProviderEnv, type KindredProcess } from './support/model-server';
import { uniqueEmail, PASSWORD } from './support/accounts';
import { skipOnboarding } from './support/onboarding';

// A tone is enough: the fake recognises it as the words it is told to; the server only checks it is not silence.
const micWav = path.join(os.tmpdir(), `kindred-e2e-mic-${process.pid}.wav`);
fs.writeFileSync(micWav, toneWav(20, 48000, 330));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const baseArgs = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'];
const micArgs = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${micWav}`];

test.use({ launchOptions: { executablePath: chromiumPath, args: [...baseArgs, ...micArgs, '--autoplay-policy=no-user-gesture-required'] } });
test.describe.configure({ mode: 'serial' });

const REPLY =
  'Hello there, I am glad you asked. [DO_NOT_READ]from notes.txt (chunk 1)[/DO_NOT_READ] I was born in London in 1815. Ask me anything else you like!';
const REPLY_SENTENCES = 3;
// The recording limit: short enough for the limit test, long enough that a manual stop after
// speak()'s ~1 s is never beaten by the limit on a busy machine (3 s was, once: the click came late).
const MAX_SECONDS = 6;

let fake: FakeOpenAI;
let eleven: FakeElevenLabs;
let azure: FakeAzure;
let app: KindredProcess;

test.beforeAll(async () => {
  fake = await startFakeOpenAI({ chat: { mode: 'reply', reply: REPLY, delayMs: 5 } });
  eleven = await startFakeElevenLabs();
  azure = await startFakeAzureSpeech();
  app = await startKindred({
    AZURE_SPEECH_KEY: 'fake-azure-key',
    AZURE_SPEECH_ENDPOINT: azure.url,
    ...voiceProviderEnv(fake.url, eleven.url),
    VOICE_MAX_RECORDING_SECONDS: String(MAX_SECONDS),
  });
});

test.afterAll(async () => {
  await app?.close();
  await eleven?.close();
  await azure?.close();
  await fake?.close();
});

test.beforeEach(() => {
  fake.setAudio({ transcript: 'Hello, who are you?', transcribeFail: 'none', speechFail: 'none' });
  eleven.set({ fail: 'none' });
});

interface VoiceProbe {
  played: { volume: number }[];
  ended: number;
  blockNext: number;
  utterances: { text: string; rate: number; pitch: number }[];
}

/** Counts what the page really plays: every <audio> play() with its volume, every "ended", every browser utterance. */
async function instrument(page: Page) {
  await page.addInitScript(() => {
    const probe = { played: [] as { volume: number }[], ended: 0, blockNext: 0, utterances: [] as { text: string; rate: number; pitch: number }[] };
    (window as unknown as { __voice: typeof probe }).__voice = probe;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      // A browser that blocks autoplay answers play() like this until the person taps.
      if (probe.blockNext > 0) {
        probe.blockNext -= 1;
        return Promise.reject(new DOMException('play() failed because the user did not interact with the document first.', 'NotAllowedError'));
      }
      probe.played.push({ volume: this.volume });
      this.addEventListener('ended', () => (probe.ended += 1), { once: true });
      return play.call(this);
    };
    // Headless Chromium has no speech voices: record the utterance and end it.
    speechSynthesis.speak = (u: SpeechSynthesisUtterance) => {
      probe.utterances.push({ text: u.text, rate: u.rate, pitch: u.pitch });
      setTimeout(() => u.onend?.(new Event('end') as SpeechSynthesisEvent), 20);
    };
  });
}

const probe = (page: Page) => page.evaluate(() => (window as unknown as { __voice: VoiceProbe }).__voice);
const log = (page: Page, name: string) => page.getByRole('log', { name: `Conversation with ${name}` });
const status = (page: Page) => page.getByRole('status', { name: 'Recording status' });
const userMessages = (page: Page, name: string) => log(page, name).locator('li[data-sender="user"]');

async function signedInWith(page: Page, personality: { name: string; voiceProvider: string; voice?: string }) {
  await instrument(page);
  const userId = await signUpOn(page.request, { url: app.url } as never, uniqueEmail('voice'), PASSWORD);
  await skipOnboarding(page, userId);
  const res = await page.request.post(`${app.url}/api/personalities`, { data: personality, headers: { origin: app.url } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto(app.url);
  await page.getByRole('button', { name: `Start Chat with ${personality.name}` }).click();
  await expect(page.getByRole('tab', { name: 'Self-paced Chat' })).toHaveAttribute('aria-selected', 'true');
  await expect(status(page)).toHaveText('Ready');
}

/** Records about `ms` of the fake microphone and stops. */
async function speak(page: Page, ms = 1200) {
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(status(page)).toContainText(/Recording\.\.\. \d+s/);
  await page.waitForTimeout(ms);
  await page.getByRole('button', { name: 'Stop Recording' }).click();
}

test('record, see the transcript, hear the reply sentence by sentence; replay; one conversation with Text Chat', async ({ page }) => {
  const name = `Ada Voice ${Date.now().toString(36)}`;
  await signedInWith(page, { name, voiceProvider: 'openai', voice: 'nova' });
  const before = fake.transcriptions.length;
  const speechesBefore = fake.speeches.length;

  await speak(page);
  await expect(userMessages(page, name).last()).toHaveText(/Hello, who are you\?/);
  await expect(log(page, name).getByText('I was born in London in 1815.')).toBeVisible();
  // The citation is shown bold, never spoken.
  await expect(log(page, name).locator('strong[data-do-not-read]')).toHaveText('from notes.txt (chunk 1)');
  await expect.poll(async () => (await probe(page)).ended, { timeout: 20_000 }).toBe(REPLY_SENTENCES);
  await expect(status(page)).toHaveText('Ready');

  // The server got a 16 kHz mono WAV of about the recorded length.
  const upload = fake.transcriptions[before]!;
  expect(upload).toMatchObject({ wav: true, sampleRate: 16000, channels: 1, model: 'whisper-1' });
  expect(upload.bytes).toBeGreaterThan(16000 * 2 * 0.8);
  const spoken = fake.speeches.slice(speechesBefore).map((s) => s.body);
  // The player asks for up to three sentences at once, so the fake may receive them in any order
  // (the order they are heard in is the log's, checked above).
  expect(spoken.map((s) => s.input).sort()).toEqual(['Ask me anything else you like!', 'Hello there, I am glad you asked.', 'I was born in London in 1815.']);
  expect(spoken.every((s) => s.voice === 'nova')).toBe(true);
  // Played at the default volume (0.7) x nova's multiplier x the playback gain, never louder than 1.
  const volumes = (await probe(page)).played.map((p) => p.volume);
  expect(volumes.every((v) => v > 0.3 && v <= 1)).toBe(true);

  await test.step('replay plays what was spoken, without asking for speech again', async () => {
    await log(page, name).locator('li[data-sender="personality"]').last().getByRole('button', { name: messages.voice.replay }).click();
    await expect.poll(async () => (await probe(page)).ended, { timeout: 20_000 }).toBe(2 * REPLY_SENTENCES);
    expect(fake.speeches.length - speechesBefore).toBe(REPLY_SENTENCES);
  });

  await test.step('Text Chat shows the same conversation, and what is typed there is in the voice tab', async () => {
    await page.getByRole('tab', { name: 'Text Chat' }).click();
    await expect(userMessages(page, name)).toHaveCount(1);
    await page.getByRole('textbox', { name: `Message to ${name}` }).fill('Tell me more about 1815');
    await page.keyboard.press('Enter');
    await expect(userMessages(page, name)).toHaveCount(2);
    await expect(log(page, name).locator('li[data-sender="personality"]').last()).toContainText('Ask me anything else');
    await page.getByRole('tab', { name: 'Self-paced Chat' }).click();
    await expect(userMessages(page, name).last()).toHaveText(/Tell me more about 1815/);
  });

  await test.step('mute silences, the slider at 0 is mute and raising it unmutes', async () => {
    await page.getByRole('button', { name: 'Mute' }).click();
    await expect(page.getByRole('slider', { name: 'Volume' })).toHaveValue('0');
    const playedBefore = (await probe(page)).played.length;
    await speak(page, 800);
    await expect.poll(async () => (await probe(page)).ended, { timeout: 20_000 }).toBe(3 * REPLY_SENTENCES);
    const muted = (await probe(page)).played.slice(playedBefore).map((p) => p.volume);
    expect(muted).toHaveLength(REPLY_SENTENCES);
    expect(muted.every((v) => v === 0)).toBe(true);
    await page.getByRole('slider', { name: 'Volume' }).fill('0.5');
    await expect(page.getByRole('button', { name: 'Mute' })).toBeVisible();
    await page.getByRole('slider', { name: 'Volume' }).fill('0');
    await expect(page.getByRole('button', { name: 'Unmute' })).toBeVisible();
    await page.getByRole('slider', { name: 'Volume' }).fill('0.7');
  });

  await test.step('the saved conversation holds what was said by voice', async () => {
    await page.reload();
    await expect(userMessages(page, name).first()).toHaveText(/Hello, who are you\?/);
  });

  await test.step('Clear Chat starts a new, empty conversation', async () => {
    await page.getByRole('button', { name: 'Clear Chat' }).click();
    await expect(userMessages(page, name)).toHaveCount(0);
  });
});

test('stops by itself at the limit with a warning, and the recording is still sent', async ({ page }) => {
  const name = `Long Talker ${Date.now().toString(36)}`;
  await signedInWith(page, { name, voiceProvider: 'openai', voice: 'alloy' });
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(page.getByText(messages.voice.recordingLimit(MAX_SECONDS))).toBeVisible({ timeout: (MAX_SECONDS + 5) * 1000 });
  await expect(page.getByRole('button', { name: 'Start Recording' })).toBeVisible();
  await expect(userMessages(page, name)).toHaveCount(1);
});

test('speech-to-text failures say the spec message and leave the conversation as it was', async ({ page }) => {
  const name = `Fragile Ear ${Date.now().toString(36)}`;
  await signedInWith(page, { name, voiceProvider: 'openai', voice: 'echo' });
  const cases: [Parameters<FakeOpenAI['setAudio']>[0], string][] = [
    [{ transcribeFail: 'rate_limit' }, messages.voice.rateLimited],
    [{ transcribeFail: 'quota' }, messages.voice.quotaExceeded],
    [{ transcribeFail: 'server_error' }, messages.voice.sttError('The server had an error while processing your request.')],
    [{ transcribeFail: 'none', transcript: '' }, messages.voice.noSpeech],
  ];
  for (const [settings, message] of cases) {
    fake.setAudio(settings);
    await speak(page, 600);
    await expect(page.getByText(message)).toBeVisible();
    await expect(status(page)).toHaveText('Ready');
    await expect(userMessages(page, name)).toHaveCount(0);
  }
  // And the person can go on.
  fake.setAudio({ transcript: 'Are you there?' });
  await speak(page, 600);
  await expect(userMessages(page, name)).toHaveCount(1);
});

test('an OpenAI voice failure is spoken by the browser; an ElevenLabs failure is a message; autoplay blocked asks for a tap', async ({ page }) => {
  const name = `Many Voices ${Date.now().toString(36)}`;
  await signedInWith(page, { name, voiceProvider: 'openai', voice: 'shimmer' });

  await test.step('OpenAI speech fails: the browser speaks each sentence at rate 0.9, pitch 1', async () => {
    fake.setAudio({ speechFail: 'server_error' });
    await speak(page, 600);
    await expect.poll(async () => (await probe(page)).utterances.length, { timeout: 20_000 }).toBe(REPLY_SENTENCES);
    const utterances = (await probe(page)).utterances;
    // The attributes are single-precision floats.
    for (const u of utterances) {
      expect(u.rate).toBeCloseTo(0.9, 5);
      expect(u.pitch).toBe(1);
    }
    expect(utterances.map((u) => u.text).join(' ')).not.toContain('notes.txt');
    expect((await probe(page)).ended).toBe(0);
    fake.setAudio({ speechFail: 'none' });
  });

  await test.step('autoplay blocked: "Tap the Play button", and Play goes on with the reply', async () => {
    await expect(status(page)).toHaveText('Ready');
    await page.evaluate(() => ((window as unknown as { __voice: VoiceProbe }).__voice.blockNext = 1));
    await speak(page, 600);
    await expect(page.getByText(messages.voice.tapToPlay)).toBeVisible();
    expect((await probe(page)).ended).toBe(0);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(async () => (await probe(page)).ended, { timeout: 20_000 }).toBe(REPLY_SENTENCES);
    await expect(page.getByText(messages.voice.tapToPlay)).toBeHidden();
  });

  await test.step('ElevenLabs fails: the spec says it is an error message, and the reply is still in the log', async () => {
    const other = `Eleven ${Date.now().toString(36)}`;
    const res = await page.request.post(`${app.url}/api/personalities`, { data: { name: other, voiceProvider: 'elevenlabs', voice: 'female' }, headers: { origin: app.url } });
    expect(res.status()).toBe(201);
    eleven.set({ fail: 'server_error' });
    await page.goto(app.url);
    await page.getByRole('button', { name: `Start Chat with ${other}` }).click();
    await speak(page, 600);
    await expect(page.getByText(messages.voice.ttsError)).toBeVisible();
    await expect(log(page, other).getByText('I was born in London in 1815.')).toBeVisible();
    expect(eleven.requests.at(-1)?.voiceId).toBeTruthy();
  });
});

test('clone a voice from the Documents modal; the personality then speaks with it', async ({ page }) => {
  const name = `Angus ${Date.now().toString(36)}`;
  await signedInWith(page, { name, voiceProvider: 'default' });
  eleven.set({ fail: 'none', cloneFail: 'none' });
  const clonesBefore = eleven.clones.length;

  await page.goto(app.url);
  await page.getByRole('article', { name, exact: true }).getByRole('button', { name: `Docs for ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Documents for ${name}` });
  const form = dialog.getByRole('form', { name: 'Clone this voice' });
  await form.getByLabel('Voice sample').setInputFiles({ name: 'angus.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from(silentMp3(30)) });
  await form.getByLabel('Voice name (optional)').fill('Angus at 80');
  await form.getByRole('button', { name: 'Create Voice Clone' }).click();
  await expect(form.getByRole('alert')).toHaveText(messages.voice.cloneConsentRequired);
  await form.getByLabel(messages.voice.cloneConsentText).check();
  await form.getByRole('button', { name: 'Create Voice Clone' }).click();
  await expect(page.getByText(messages.voice.cloned('Angus at 80'))).toBeVisible();
  expect(eleven.clones.length).toBe(clonesBefore + 1);
  const voiceId = eleven.clones.at(-1)!.voiceId!;
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  // The card's voice badge says so.
  await expect(page.getByRole('article', { name, exact: true })).toContainText('Custom voice');

  const speechesBefore = eleven.requests.length;
  await page.getByRole('button', { name: `Start Chat with ${name}` }).click();
  await expect(status(page)).toHaveText('Ready');
  await speak(page, 600);
  await expect.poll(async () => (await probe(page)).ended, { timeout: 20_000 }).toBe(REPLY_SENTENCES);
  const asked = eleven.requests.slice(speechesBefore).map((r) => r.voiceId);
  expect(asked).toHaveLength(REPLY_SENTENCES);
  expect(asked.every((id) => id === voiceId)).toBe(true);
});

test('a pronunciation coach: what was heard is the message, the report colours each word, and the reply coaches', async ({ page }) => {
  const name = `Accent Coach ${Date.now().toString(36)}`;
  await signedInWith(page, { name, voiceProvider: 'openai', voice: 'nova' });
  fake.setAudio({ transcript: 'I thought it was thorough', verbatimTranscript: 'I fought it was forough' });
  azure.set({ mispronounce: ['thought', 'thorough'], omit: [], fail: 'none' });
  const chatsBefore = fake.chatRequests.length;

  await speak(page, 800);
  await expect(userMessages(page, name).last()).toHaveText(/I fought it was forough/);
  const report = log(page, name).getByRole('region', { name: 'Pronunciation report' });
  await expect(report).toContainText('Pronunciation 71/100');
  const words = report.getByRole('list', { name: 'Words' }).getByRole('listitem');
  await expect(words).toHaveCount(5);
  await expect(words.nth(1)).toHaveAttribute('data-error-type', 'Mispronunciation');
  await expect(words.nth(0)).toHaveAttribute('data-error-type', 'None');
  const worst = report.getByRole('list', { name: 'Mispronunciations by priority' }).getByRole('listitem');
  await expect(worst.first()).toContainText('high');
  await expect(worst.first()).toContainText('“thought” heard as “fought”');
  await expect.poll(async () => (await probe(page)).ended, { timeout: 20_000 }).toBe(REPLY_SENTENCES);
  // The model was asked to coach on the report.
  const system = JSON.stringify(fake.chatRequests.slice(chatsBefore).at(-1));
  expect(system).toContain('pronunciation coach');
  expect(system).toContain('thought');
});

test('a denied microphone says how to allow it, and text chat still works', async () => {
  // Without the fake permission UI, headless Chromium refuses the microphone as a person would.
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...baseArgs, '--use-fake-device-for-media-stream'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const name = `Shy Mic ${Date.now().toString(36)}`;
    await signedInWith(page, { name, voiceProvider: 'default' });
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await expect(page.getByText(messages.voice.micDenied)).toBeVisible();
    await expect(status(page)).toHaveText('Ready');
    await page.getByRole('tab', { name: 'Text Chat' }).click();
    await page.getByRole('textbox', { name: `Message to ${name}` }).fill('Can you hear me?');
    await page.keyboard.press('Enter');
    await expect(log(page, name).getByText('I was born in London in 1815.')).toBeVisible();
  } finally {
    await browser.close();
  }
});
