// The real server as a child process (PGlite in a fresh DATA_DIR, as `npm start` does, unless
// DATABASE_URL is set), for benchmarks that read its memory from /proc.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/server/test-support/test-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startServerProcess(extraEnv: Record<string, string>): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      RATE_LIMIT_AUTH_PER_15MIN: '1000',
      JOB_POLL_MS: '100',
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Kindred is running at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}
