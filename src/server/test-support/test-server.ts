// Starts the real server over real HTTP for integration tests: a fresh in-memory PGlite per
// server, or, when TEST_DATABASE_URL is set, a fresh database created on that PostgreSQL server
// (and dropped on close). Logs are kept in memory so tests can read them (e.g. confirmation links).
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';
import pg from 'pg';
import type { SQL } from 'drizzle-orm';
import { loadConfig, type AppConfig } from '../config';
import { startServer, type RunningServer, type StartOptions } from '../start';
import { createLogger } from '../lib/logger';
import type { Clock } from '../lib/clock';
import { freePort } from '../lib/free-port';
import { migratedPgliteImage, seedPgliteDataDir } from './pglite-image';
import { isInitialized } from '../db/pglite/initialize-data-dir';
export { freePort };

export interface TestServer extends RunningServer {
  config: AppConfig;
  logs: string[];
  /** A client with its own cookie jar (one browser). */
  client(): TestClient;
  /** Signs up and signs in a fresh account; returns its client. */
  user(email?: string, password?: string, displayName?: string): Promise<TestClient & { email: string; id: string }>;
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestClient {
  request<T = any>(method: string, urlPath: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse<T>>;
  get<T = any>(urlPath: string): Promise<TestResponse<T>>;
  post<T = any>(urlPath: string, body?: unknown): Promise<TestResponse<T>>;
  patch<T = any>(urlPath: string, body?: unknown): Promise<TestResponse<T>>;
  put<T = any>(urlPath: string, body?: unknown): Promise<TestResponse<T>>;
  delete<T = any>(urlPath: string): Promise<TestResponse<T>>;
  raw(urlPath: string, init?: RequestInit): Promise<Response>;
  signUp(email: string, password: string, name?: string): Promise<TestResponse>;
  signIn(email: string, password: string): Promise<TestResponse>;
  cookies: Map<string, string>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  clock?: Clock;
  start?: StartOptions;
  /**
   * Keep the database in this PGlite data folder (not deleted on close) instead of a fresh
   * in-memory or scratch database: for tests that stop and start a server on the same data.
   */
  dataDir?: string;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const persistent = options.dataDir !== undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-test-'));
  const logs: string[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (process.env.TEST_DATABASE_URL && !persistent) {
    ({ databaseUrl, drop: dropDatabase } = await createScratchDatabase(process.env.TEST_DATABASE_URL));
  }
  // A real port up front, so PUBLIC_URL (links in e-mails, the Origin check) names this server.
  const port = Number(options.env?.PORT ?? (await freePort()));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    // Every request in a test comes from 127.0.0.1: rate-limit tests set their own low limits.
    RATE_LIMIT_AUTH_PER_15MIN: '1000',
    RATE_LIMIT_FEEDBACK_PER_HOUR: '1000',
    RATE_LIMIT_CHAT_PER_MINUTE: '1000',
    RATE_LIMIT_URL_IMPORT_PER_HOUR: '1000',
    RATE_LIMIT_PERSONALITIES_PER_HOUR: '1000',
    RATE_LIMIT_SHARES_PER_HOUR: '1000',
    RATE_LIMIT_VERIFICATION_EMAIL_PER_HOUR: '1000',
    SIGN_IN_FAILURES_BEFORE_BACKOFF: '1000',
    SIGN_IN_FAILURES_PER_ACCOUNT: '1000',
    // Uploads do not depend on the test machine's free disk (documents.disk-reserve.test.ts sets its own).
    DISK_RESERVE_MB: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    // The embedded embedding model (~230 MB, ~1.3 s to load) only where a test is about it: those
    // set EMBEDDING_MODEL themselves ('' for the embedded one).
    EMBEDDING_MODEL: 'none',
    ...options.env,
  });
  const logger = createLogger('info', (line) => logs.push(line));
  const pgliteDir = path.join(dataDir, 'pglite');
  if (persistent && !config.databaseUrl && !isInitialized(pgliteDir)) await seedPgliteDataDir(pgliteDir);
  const inMemoryPglite = !persistent && !config.databaseUrl;
  const running = await startServer(config, {
    inMemoryDatabase: !persistent,
    ...(inMemoryPglite ? { inMemoryDatabaseImage: await migratedPgliteImage() } : {}),
    logger,
    clock: options.clock,
    webRoot: null,
    ...options.start,
  });
  const server: TestServer = {
    ...running,
    config,
    logs,
    client: () => createClient(running.url),
    async user(email, password = 'secret-pass', displayName) {
      const address = email ?? `user-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const c = createClient(running.url);
      const up = await c.signUp(address, password, displayName);
      if (up.status !== 200) throw new Error(`sign-up failed: ${up.status} ${JSON.stringify(up.body)}`);
      const signIn = await c.signIn(address, password);
      if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
      return Object.assign(c, { email: address.toLowerCase(), id: up.body.user.id as string });
    },
    async close() {
      await running.close();
      if (dropDatabase) await dropDatabase();
      if (!persistent) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** The rows a statement returns, run straight on the server's database. */
export async function rows<T>(server: Pick<TestServer, 'database'>, query: SQL): Promise<T[]> {
  return ((await server.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

export function createClient(baseUrl: string): TestClient {
  const cookies = new Map<string, string>();
  const origin = new URL(baseUrl).origin;
  async function raw(urlPath: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (!headers.has('origin')) headers.set('origin', origin);
    const res = await fetch(baseUrl + urlPath, { ...init, headers, redirect: 'manual' });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(set)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return res;
  }
  async function request(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await raw(urlPath, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  }
  return {
    cookies,
    raw,
    request,
    get: (p) => request('GET', p),
    post: (p, b) => request('POST', p, b ?? {}),
    patch: (p, b) => request('PATCH', p, b ?? {}),
    put: (p, b) => request('PUT', p, b ?? {}),
    delete: (p) => request('DELETE', p),
    signUp: (email, password, name) => request('POST', '/api/auth/sign-up/email', { email, password, name: name ?? '' }),
    signIn: (email, password) => request('POST', '/api/auth/sign-in/email', { email, password }),
  };
}


export async function createScratchDatabase(adminUrl: string) {
  const name = `kindred_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
