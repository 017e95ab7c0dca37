// The first minutes on a fresh install, both ways a server can be set up:
// - no SMTP_URL (the shared e2e server): Sign Up signs the person in and lands on /, where
//   onboarding opens;
// - SMTP_URL pointing at a loopback SMTP fake: a second Kindred server is started by this file
//   (same built web app, own data folder and port), Sign Up shows the spec's message, stays on
//   /auth, the confirmation e-mail reaches the fake, and opening its link lets the person in.
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { getMe, PASSWORD, uniqueEmail } from './support/accounts';
import { freePort } from '../../src/server/lib/free-port';

test('with no mail server, Sign Up signs the person in and lands on / with onboarding open', async ({ page }) => {
  const email = uniqueEmail('instant');
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('dialog', { name: 'Welcome to Kindred' })).toBeVisible();
  await expect(page.getByTestId('auth-message')).toHaveCount(0);
  expect((await getMe(page.request)).user?.email).toBe(email);
});

test.describe('with SMTP_URL set', () => {
  // Starting a second server takes a few seconds (database, migrations).
  test.describe.configure({ timeout: 180_000 });

  const inbox: { to: string[]; raw: string }[] = [];
  let smtp: SMTPServer;
  let server: ChildProcess | undefined;
  let dataDir: string;
  let baseURL: string;
  let serverErr = '';

  test.beforeAll(async () => {
    // A hook has its own time limit (the config's 60 s), not the describe's: starting a second
    // server on a busy machine can take longer.
    test.setTimeout(180_000);
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const smtpPort = (smtp.server.address() as net.AddressInfo).port;
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-e2e-smtp-'));
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir,
        WEB_ROOT: process.env.E2E_WEB_ROOT ?? '',
        DATABASE_URL: '',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        SMTP_FROM: 'Kindred <kindred@example.com>',
        ADMIN_EMAILS: '',
        LOG_LEVEL: 'warn',
        EMBEDDING_MODEL: 'none',
        RATE_LIMIT_AUTH_PER_15MIN: '100000',
        RATE_LIMIT_CHAT_PER_MINUTE: '100000',
        RATE_LIMIT_URL_IMPORT_PER_HOUR: '100000',
        SIGN_IN_FAILURES_BEFORE_BACKOFF: '100000',
        SIGN_IN_FAILURES_PER_ACCOUNT: '100000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    server.stderr?.on('data', (d: Buffer) => (serverErr += d.toString()));
    const deadline = Date.now() + 150_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the SMTP server run exited: ${serverErr}`);
      const ok = await fetch(`${baseURL}/api/health`).then((r) => r.ok).catch(() => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the SMTP server run did not start: ${serverErr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('Sign Up shows the spec message, stays signed out, and the e-mailed link lets the person in', async ({ page }) => {
    const email = uniqueEmail('mailed');
    await page.goto(`${baseURL}/auth`);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const message = page.getByTestId('auth-message');
    await expect(message).toHaveText('Check your email for a confirmation link!');
    await expect(message).toHaveAttribute('data-variant', 'default');
    await expect(page).toHaveURL(/\/auth$/);
    const me = await page.request.get(`${baseURL}/api/me`);
    expect(((await me.json()) as { user: unknown }).user).toBeNull();

    // The link arrives by SMTP (not in a log).
    await expect.poll(() => inbox.some((m) => m.to.includes(email)), { timeout: 20_000 }).toBe(true);
    const raw = inbox.find((m) => m.to.includes(email))!.raw;
    const body = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    const link = body.match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)?.[0];
    expect(link, body).toBeDefined();
    expect(link!.startsWith(`${baseURL}/`)).toBe(true);

    // Sign-in waits for the link...
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('auth-message')).toHaveAttribute('data-variant', 'destructive');
    await expect(page).toHaveURL(/\/auth$/);

    // ...and once it is opened, the person is in.
    await page.goto(link!);
    await page.goto(`${baseURL}/`);
    // Signed in: the page shows the account (or onboarding, a modal over it, for a first visit).
    await expect(
      page.getByRole('dialog', { name: 'Welcome to Kindred' }).or(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })),
    ).toBeVisible();
    const after = (await (await page.request.get(`${baseURL}/api/me`)).json()) as { user: { email: string } | null };
    expect(after.user?.email).toBe(email);
  });
});

