// One server per PGlite data folder: a second start refuses with a clear message, a lock left by a
// process that is gone is taken over, and stopping and starting again keeps the data.
import { afterAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, freePort, type TestServer } from './test-support/test-server';
import { DataDirLockedError } from './db/client';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tempDirs: string[] = [];
const running = new Set<TestServer>();

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-start-'));
  tempDirs.push(dir);
  return dir;
}

async function start(dataDir: string) {
  const server = await startTestServer({ dataDir });
  running.add(server);
  return server;
}

async function stop(server: TestServer) {
  running.delete(server);
  await server.close();
}

afterAll(async () => {
  for (const s of running) await s.close();
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

const lockFile = (dataDir: string) => path.join(dataDir, 'pglite', 'kindred.lock');

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('one server per data folder', () => {
  it('refuses a second start in this process with DataDirLockedError', async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    await expect(startTestServer({ dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(startTestServer({ dataDir })).rejects.toThrow(/already using the data folder/);
    // The first one is unharmed.
    expect((await first.client().get('/api/health')).status).toBe(200);
    await stop(first);
  });

  it('refuses a second server process with a clear message and exit code 1', async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' };
    delete env.DATABASE_URL;
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: repoRoot, env, timeout: 100_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, output: `${stdout}${stderr}` });
      });
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`Another Kindred server (pid ${process.pid}) is already using the data folder`);
    expect(result.output).toContain('set DATA_DIR to another folder');
    // A clear message, not a stack trace.
    expect(result.output).not.toMatch(/\n\s+at /);
    expect((await first.client().get('/api/health')).status).toBe(200);
    await stop(first);
    // A fresh database, then a second process compiling and starting: on a busy 2-core machine
    // each has taken 30 s and more.
  }, 120_000);

  it('refuses a folder locked by another live process', async () => {
    const dataDir = tempDataDir();
    fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    fs.writeFileSync(lockFile(dataDir), String(process.ppid));
    await expect(startTestServer({ dataDir })).rejects.toThrow(`(pid ${process.ppid})`);
    expect(fs.readFileSync(lockFile(dataDir), 'utf8')).toBe(String(process.ppid));
  });

  it('takes over a stale lock left by a process that is gone', async () => {
    const dataDir = tempDataDir();
    fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    fs.writeFileSync(lockFile(dataDir), String(await deadPid()));
    const server = await start(dataDir);
    expect(fs.readFileSync(lockFile(dataDir), 'utf8')).toBe(String(process.pid));
    expect((await server.client().get('/api/health')).status).toBe(200);
    await stop(server);
    expect(fs.existsSync(lockFile(dataDir))).toBe(false);
  });

  it('creates its database files and secret readable by its own user only', async () => {
    const dataDir = tempDataDir();
    // As an operator's mkdir leaves it under the usual umask.
    fs.chmodSync(dataDir, 0o755);
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 100_000);
        const onData = (d: Buffer) => {
          out += d.toString();
          if (out.includes('Kindred is running')) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
      });
      // Nobody but its user may enter the folder (the database files inside were rw-rw-rw-), and
      // the secret is private on its own too.
      const modes = ['.', 'auth-secret'].map((f) => [f, fs.statSync(path.join(dataDir, f)).mode & 0o777] as const);
      for (const [file, mode] of modes) expect(`${file} ${(mode & 0o077).toString(8)}`).toBe(`${file} 0`);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);

  it('keeps accounts, sessions and personalities across a stop and a start', async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    const owner = await first.user('keeper@example.com');
    const created = await owner.post('/api/personalities', { name: 'Persistent' });
    expect(created.status).toBe(201);
    const cookies = new Map(owner.cookies);
    await stop(first);

    const second = await start(dataDir);
    const again = second.client();
    for (const [k, v] of cookies) again.cookies.set(k, v);
    expect((await again.get('/api/me')).body.user.email).toBe('keeper@example.com');
    const list = await again.get('/api/personalities');
    expect((list.body.personalities as { id: string; name: string }[]).map((p) => [p.id, p.name])).toEqual([
      [created.body.personality.id, 'Persistent'],
    ]);
    await stop(second);
  });

  it('removes the half-written files of uploads a killed run left behind, and nothing else', async () => {
    const dataDir = tempDataDir();
    const folder = path.join(dataDir, 'blobs', 'user-1', 'personality-1');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, '1700000000000_notes.txt'), 'a stored document');
    fs.writeFileSync(path.join(folder, '1700000000001_nine.txt.77cfdd379622.tmp'), 'half of an upload');
    const server = await start(dataDir);
    expect(fs.readdirSync(folder)).toEqual(['1700000000000_notes.txt']);
    expect(server.logs.join('\n')).toMatch(/1 unfinished upload\(s\) from an interrupted run removed/);
    await stop(server);
  });
});
