// Admins: ADMIN_EMAILS grants the role at sign-up and at start-up, and `npm run admin -- grant|revoke`
// (scripts/admin-role.ts) changes it on an existing database while the server is stopped.
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../test-support/test-server';
import { eq } from 'drizzle-orm';
import { user } from '../db/schema/auth';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tempDirs: string[] = [];
const running: TestServer[] = [];

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-roles-'));
  tempDirs.push(dir);
  return dir;
}

async function start(options: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(options);
  running.push(server);
  return server;
}

async function stop(server: TestServer) {
  await server.close();
  running.splice(running.indexOf(server), 1);
}

afterAll(async () => {
  for (const s of running) await s.close();
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

async function isAdmin(server: TestServer, email: string): Promise<boolean> {
  const c = server.client();
  const res = await c.signIn(email, 'secret-pass');
  expect(res.status).toBe(200);
  return (await c.get('/api/me')).body.isAdmin;
}

/** Runs the admin command as `npm run admin` would, against the folder's database. */
function adminCommand(dataDir: string, ...args: string[]): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/admin-role.ts', ...args], { cwd: repoRoot, env, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe('ADMIN_EMAILS', () => {
  it('grants admin at sign-up to listed e-mails only, whatever their letter case', async () => {
    const server = await start({ env: { ADMIN_EMAILS: ' Boss@Example.com , second@example.com' } });
    const boss = await server.user('boss@EXAMPLE.com');
    const second = await server.user('second@example.com');
    const plain = await server.user('plain@example.com');
    expect((await boss.get('/api/me')).body.isAdmin).toBe(true);
    expect((await second.get('/api/me')).body.isAdmin).toBe(true);
    expect((await plain.get('/api/me')).body.isAdmin).toBe(false);
    await stop(server);
  });

  it('grants admin at start-up to an account that already exists', async () => {
    const dataDir = tempDataDir();
    const first = await start({ dataDir });
    await first.user('early@example.com');
    await first.user('bystander@example.com');
    expect(await isAdmin(first, 'early@example.com')).toBe(false);
    await stop(first);

    const second = await start({ dataDir, env: { ADMIN_EMAILS: 'early@example.com' } });
    expect(second.logs.some((l) => l.includes('admin role granted to 1 account'))).toBe(true);
    expect(await isAdmin(second, 'early@example.com')).toBe(true);
    expect(await isAdmin(second, 'bystander@example.com')).toBe(false);
    await stop(second);
  });
});

describe('accounts made without a mail server', () => {
  it('are confirmed, so adding SMTP_URL later does not lock them out; one left waiting is confirmed at start-up', async () => {
    const dataDir = tempDataDir();
    const first = await start({ dataDir });
    await first.user('made-early@example.com');
    await first.user('waiting@example.com');
    // As the code before confirmation at sign-up left them.
    await first.database.db.update(user).set({ emailVerified: false }).where(eq(user.email, 'waiting@example.com'));
    await stop(first);

    const again = await start({ dataDir });
    expect(again.logs.some((l) => l.includes('1 account(s) waiting for a confirmation link confirmed'))).toBe(true);
    await stop(again);

    // Mail configured now (nothing listens there: signing in sends nothing).
    const mailing = await start({ dataDir, env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    for (const email of ['made-early@example.com', 'waiting@example.com']) {
      expect((await mailing.client().signIn(email, 'secret-pass')).status, email).toBe(200);
    }
    await stop(mailing);
  });
});

describe('npm run admin', () => {
  it('grants and revokes admin on an existing database, and refuses while the server runs', async () => {
    const dataDir = tempDataDir();
    const server = await start({ dataDir });
    await server.user('promoted@example.com');

    const whileRunning = await adminCommand(dataDir, 'grant', 'promoted@example.com');
    expect(whileRunning.code).not.toBe(0);
    expect(whileRunning.output).toContain('is already using the data folder');
    await stop(server);

    const granted = await adminCommand(dataDir, 'grant', 'Promoted@example.com');
    expect(granted.output).toMatch(/promoted@example.com is now an admin/i);
    expect(granted.code).toBe(0);
    let again = await start({ dataDir });
    expect(await isAdmin(again, 'promoted@example.com')).toBe(true);
    await stop(again);

    const revoked = await adminCommand(dataDir, 'revoke', 'promoted@example.com');
    expect(revoked.code).toBe(0);
    again = await start({ dataDir });
    expect(await isAdmin(again, 'promoted@example.com')).toBe(false);
    await stop(again);
  });

  it('fails clearly for an unknown account and for bad usage', async () => {
    const dataDir = tempDataDir();
    const server = await start({ dataDir });
    await stop(server);
    const unknown = await adminCommand(dataDir, 'grant', 'ghost@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('No account with the e-mail ghost@example.com');
    const usage = await adminCommand(dataDir, 'promote', 'x@example.com');
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('Usage: npm run admin -- grant|revoke <email>');
  });
});
