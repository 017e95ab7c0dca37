// Opens the database the configuration names: PGlite in DATA_DIR by default (embedded, no server),
// or a PostgreSQL server when DATABASE_URL is set. Both are driven through drizzle with one schema,
// and migrations are applied here at start-up.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index';
import type { Logger } from '../lib/logger';
import type { PGlite } from '@electric-sql/pglite';
import { startPgliteThread, type PgliteThread } from './pglite/pglite-thread';
import { initializeDataDir, isInitialized } from './pglite/initialize-data-dir';
import { ensureEmbeddingsTable, type VectorStore } from './embeddings-schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** pgvector is available (PGlite bundles it; a PostgreSQL server may lack it). */
  hasVector: boolean;
  /** How embeddings are stored: pgvector, or float32 in bytea scored in the app (embeddings-schema.ts). */
  vectorStore: VectorStore;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  /** PGlite data folder; undefined means in memory (tests). */
  pgliteDir?: string;
  /** In memory: a dumped data folder (tar) to start from instead of a new one (tests). */
  pgliteImage?: string;
  logger?: Logger;
  /** PostgreSQL: how long one statement may go unanswered before it fails (default QUERY_TIMEOUT_MS). */
  queryTimeoutMs?: number;
}

/**
 * A statement PostgreSQL has not answered in this long fails, and its connection is dropped from
 * the pool. Without it, a server that stops answering without closing the connection (a paused
 * or overloaded host, a network path that drops packets) holds every request that reaches that
 * connection for ever; TCP keepalive takes hours to notice. The slowest statements the app runs
 * (deleting a personality with 100,000 passages, rechunking a large document) take seconds.
 */
export const QUERY_TIMEOUT_MS = 60_000;

export async function openDatabase(opts: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const handle = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, opts.logger, opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS)
    : await openPglite(opts.pgliteDir, opts.pgliteImage);
  const migrateStarted = Date.now();
  await handle.migrate();
  opts.logger?.debug(`migrations applied in ${Date.now() - migrateStarted} ms`);
  if (!handle.hasVector) {
    opts.logger?.info('pgvector is not available in this database: vectors are kept as float32 and scored in the app');
  }
  return { db: handle.db, kind: handle.kind, hasVector: handle.hasVector, vectorStore: handle.vectorStore, close: handle.close };
}

/**
 * What every PGlite start runs on its database (pgvector already loaded): the migrations, then the
 * embeddings table. Also builds the tests' migrated image (test-support/pglite-image.ts).
 */
export async function migratePglite(db: Database): Promise<void> {
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  await migrate(db as never, { migrationsFolder });
  await ensureEmbeddingsTable(db, true);
}

async function openPglite(dataDir?: string, image?: string) {
  const { drizzle } = await import('drizzle-orm/pglite');
  let release = () => {};
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    release = takeDataDirLock(dataDir);
  }
  let client: PgliteThread;
  try {
    if (dataDir && !isInitialized(dataDir)) await initializeDataDir(dataDir);
    // In a thread of its own, so SQL runs beside the server's requests instead of between them.
    client = await startPgliteThread(dataDir ?? null, dataDir ? undefined : image);
  } catch (err) {
    release();
    throw err;
  }
  // The thread offers the part of PGlite's interface drizzle's PGlite driver calls.
  const db = drizzle({ client: client as unknown as PGlite, schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite' as const,
    hasVector: true,
    vectorStore: 'pgvector' as VectorStore,
    migrate: () => migratePglite(db),
    close: async () => {
      await client.close();
      release();
    },
  };
}

async function openPostgres(url: string, logger: Logger | undefined, queryTimeoutMs: number) {
  const pg = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  // A database that cannot be reached fails a request within 10 s instead of queueing it for ever;
  // keepalive notices a connection a firewall or a dead host dropped silently; a statement left
  // unanswered fails after queryTimeoutMs (QUERY_TIMEOUT_MS says why).
  const connection = { connectionString: url, connectionTimeoutMillis: 10_000, keepAlive: true };
  const pool = new pg.default.Pool({ ...connection, max: 10, query_timeout: queryTimeoutMs });
  // An idle pooled connection can be cut by the server (a restart, a failover, an administrator
  // terminating it). pg-pool drops that connection and emits 'error' on the pool; without a
  // listener that is an uncaught exception that would take the whole server down. The next query
  // simply opens a new connection, so a warning is all it deserves.
  pool.on('error', (err) => logger?.warn('a database connection was closed by the server; it will be replaced', err.message));
  pool.on('connect', (client) => dropWhenUnanswered(client, logger));
  const db = drizzle(pool, { schema }) as unknown as Database;
  let hasVector = false;
  let vectorStore: VectorStore = 'bytea';
  return {
    db,
    kind: 'postgres' as const,
    get hasVector() {
      return hasVector;
    },
    get vectorStore() {
      return vectorStore;
    },
    // Several app processes may start at once on one database (a deploy, a scale-up): the
    // extension and the migrations are applied by one of them at a time, under an advisory lock;
    // the others wait, then find everything applied and do nothing.
    // On connections of their own, without the query timeout: waiting for another process's
    // migrations, or building an index on a large table, may rightly take longer than a request.
    migrate: async () => {
      const migrationPool = new pg.default.Pool({ ...connection, max: 2 }); // the lock's, and the migrations'
      migrationPool.on('error', (err) => logger?.warn('a database connection was closed by the server during migrations', err.message));
      const migrationDb = drizzle(migrationPool, { schema }) as unknown as Database;
      try {
        await withAdvisoryLock(migrationPool, MIGRATION_LOCK, async () => {
          try {
            await migrationDb.execute(sql`CREATE EXTENSION IF NOT EXISTS vector`);
            hasVector = true;
          } catch {
            hasVector = false;
          }
          await migrate(migrationDb as never, { migrationsFolder });
          // Outside the migrations: its column type depends on pgvector (embeddings-schema.ts).
          vectorStore = await ensureEmbeddingsTable(migrationDb, hasVector);
        });
      } finally {
        await migrationPool.end();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * A pooled connection whose statement went unanswered past the query timeout is closed, so the
 * pool replaces it. pg only fails the statement: inside a transaction the ROLLBACK behind it is not
 * sent either, drizzle hands the connection back as if healthy, and once the network heals every
 * statement on it runs inside that forgotten transaction and is never committed. Also, a checked-out
 * connection whose socket dies emits 'error' on itself (pg-pool listens only while it is idle):
 * without a listener that would end the process.
 */
function dropWhenUnanswered(client: import('pg').PoolClient, logger?: Logger) {
  client.on('error', (err) => logger?.warn('a database connection failed; it will be replaced', err.message));
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const watched = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        if (err instanceof Error && err.message === 'Query read timeout') (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      });
    }
    return result;
  };
  client.query = watched as typeof client.query;
}

/** The advisory lock migrations run under: (class, id) chosen for Kindred, same in every process. */
export const MIGRATION_LOCK: readonly [number, number] = [0x4b696e64, 1]; // "Kind", 1

/**
 * Runs `fn` while holding a session advisory lock on one pooled connection. The lock is released
 * when `fn` ends, or by PostgreSQL itself if this process dies (its session ends).
 */
export async function withAdvisoryLock<T>(pool: import('pg').Pool, key: readonly [number, number], fn: () => Promise<T>): Promise<T> {
  const conn = await pool.connect();
  try {
    await conn.query('select pg_advisory_lock($1, $2)', [key[0], key[1]]);
    try {
      return await fn();
    } finally {
      await conn.query('select pg_advisory_unlock($1, $2)', [key[0], key[1]]);
    }
  } finally {
    conn.release();
  }
}

/**
 * PGlite is a single-process database: two servers on one folder would corrupt it. The lock file
 * holds the owner's pid; a lock left by a process that is gone is taken over.
 */
export function takeDataDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'kindred.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isFinite(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(dataDir, owner);
      }
      fs.unlinkSync(lockPath); // stale: its process is gone
    }
  }
  throw new DataDirLockedError(dataDir, -1);
}

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `Another Kindred server (pid ${pid}) is already using the data folder ${dataDir}. ` +
        'PGlite allows one server per folder: stop the other one, or set DATA_DIR to another folder.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
