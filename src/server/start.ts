// Opens everything the app needs and listens. main.ts calls it with the environment's config;
// tests and benchmarks call it with their own (in-memory database, port 0, fake providers).
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from './config';
import { openDatabase, type DatabaseHandle } from './db/client';
import { createLogger, type Logger } from './lib/logger';
import { systemClock, type Clock } from './lib/clock';
import { resolveAuthSecret } from './lib/secrets';
import { createMailer, type Mailer } from './auth/mailer';
import { grantListedAdmins } from './auth/roles';
import { createApp } from './app';

export interface StartOptions {
  /** PGlite in memory instead of DATA_DIR (tests). Ignored when config.databaseUrl is set. */
  inMemoryDatabase?: boolean;
  logger?: Logger;
  clock?: Clock;
  mailer?: Mailer;
  /** Serve the built front end; defaults to dist/web when it exists. */
  webRoot?: string | null;
}

export interface RunningServer {
  url: string;
  port: number;
  database: DatabaseHandle;
  close(): Promise<void>;
}

const defaultWebRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

export async function startServer(config: AppConfig, opts: StartOptions = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.databaseUrl || opts.inMemoryDatabase ? undefined : path.join(config.dataDir, 'pglite'),
    logger,
  });
  try {
    const granted = await grantListedAdmins(database.db, config.adminEmails);
    if (granted > 0) logger.info(`admin role granted to ${granted} account(s) from ADMIN_EMAILS`);
    const webRoot = opts.webRoot === null ? undefined : (opts.webRoot ?? (fs.existsSync(defaultWebRoot) ? defaultWebRoot : undefined));
    const { app } = createApp({
      config,
      database,
      logger,
      clock: opts.clock ?? systemClock,
      mailer: opts.mailer ?? createMailer(config.smtpUrl, config.smtpFrom, logger),
      authSecret: resolveAuthSecret(config.authSecret, config.dataDir),
      webRoot,
    });
    const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', () => resolve());
      server.once('error', reject);
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${config.host}:${port}`;
    return {
      url,
      port,
      database,
      close: async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await database.close();
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}
