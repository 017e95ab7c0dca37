// Two (or more) real Kindred server processes on one PostgreSQL and one S3-compatible server
// (s3rver), behind the round-robin proxy: what `npm run multi` starts, and what the multi-process
// test suite drives. Each process is `node --import tsx src/server/main.ts` with its own port and
// DATA_DIR but the same DATABASE_URL, bucket and AUTH_SECRET, exactly as a deployment runs them.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRoundRobinProxy, type Backend, type RoundRobinProxy } from './round-robin-proxy';
import { startS3TestServer, type S3TestServer } from './s3-test-server';
import { freePort } from '../../src/server/lib/free-port';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface AppProcess {
  index: number;
  url: string;
  port: number;
  child: ChildProcess;
  backend: Backend;
  output: string[];
  /** kill -9: no clean shutdown, its job leases simply expire. */
  kill(): void;
}

export interface Cluster {
  url: string;
  proxy: RoundRobinProxy;
  s3: S3TestServer;
  apps: AppProcess[];
  stop(): Promise<void>;
}

export interface ClusterOptions {
  databaseUrl: string;
  processes?: number;
  /** More settings for every app process (providers, limits). */
  env?: Record<string, string>;
  proxyPort?: number;
  /** Echo the processes' logs to this process's stderr (npm run multi). */
  echo?: boolean;
}


async function waitHealthy(url: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app process exited (${child.exitCode}):\n${output.join('')}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`app process at ${url} did not become healthy:\n${output.join('')}`);
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const s3 = await startS3TestServer();
  const proxyPort = opts.proxyPort || (await freePort()); // 0: any free port (PUBLIC_URL must name the real one)
  const publicUrl = `http://127.0.0.1:${proxyPort}`;
  const authSecret = crypto.randomBytes(32).toString('hex');
  const apps: AppProcess[] = [];
  const dataDirs: string[] = [];
  const n = opts.processes ?? 2;
  try {
    // Started together on purpose: their migrations race, and the advisory lock settles it.
    await Promise.all(
      Array.from({ length: n }, async (_, index) => {
        const port = await freePort();
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kindred-multi-${index}-`));
        dataDirs.push(dataDir);
        const output: string[] = [];
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
          cwd: root,
          env: {
            ...process.env,
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            PUBLIC_URL: publicUrl,
            DATA_DIR: dataDir,
            DATABASE_URL: opts.databaseUrl,
            AUTH_SECRET: authSecret,
            TRUSTED_PROXIES: '127.0.0.1',
            EMBEDDING_MODEL: 'none',
            LOG_LEVEL: 'info',
            ...s3.env,
            ...opts.env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const keep = (chunk: Buffer) => {
          const text = chunk.toString();
          output.push(text);
          if (output.length > 500) output.shift();
          if (opts.echo) process.stderr.write(`[app ${index}] ${text}`);
        };
        child.stdout!.on('data', keep);
        child.stderr!.on('data', keep);
        const backend: Backend = { host: '127.0.0.1', port, up: true };
        child.on('exit', () => {
          backend.up = false;
        });
        const app: AppProcess = {
          index,
          url: `http://127.0.0.1:${port}`,
          port,
          child,
          backend,
          output,
          kill() {
            backend.up = false;
            child.kill('SIGKILL');
          },
        };
        apps[index] = app;
        await waitHealthy(app.url, child, output);
      }),
    );
  } catch (err) {
    for (const a of apps) a?.child.kill('SIGKILL');
    await s3.close();
    throw err;
  }
  const proxy = await startRoundRobinProxy(
    apps.map((a) => a.backend),
    proxyPort,
  );
  return {
    url: proxy.url,
    proxy,
    s3,
    apps,
    async stop() {
      await proxy.close();
      await Promise.all(
        apps.map(
          (a) =>
            new Promise<void>((resolve) => {
              if (a.child.exitCode !== null || a.child.signalCode !== null) return resolve();
              a.child.once('exit', () => resolve());
              a.child.kill('SIGTERM');
              setTimeout(() => a.child.kill('SIGKILL'), 10_000).unref();
            }),
        ),
      );
      await s3.close();
      for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}
