// The only file that listens: reads the environment once, starts, and shuts down cleanly.
import fs from 'node:fs';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { createLogger } from './lib/logger';
import { startServer } from './start';
import { DataDirLockedError } from './db/client';
import { describeStorage } from './storage/configured-storage';

let config: AppConfig;
try {
  config = loadConfig();
} catch (err) {
  // A setting it cannot start with: one line naming the variable, not a stack trace.
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
const logger = createLogger(config.logLevel);
// The data folder (the embedded database, uploads, the generated secret) is its user's alone: the
// database's files come out world-writable (PGlite sets their modes itself) and uploads
// world-readable under the usual umask, open to any account on a shared host. A folder nobody else
// may enter keeps them out whatever the files' own modes; new files are private too.
process.umask(0o077);
try {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(config.dataDir, 0o700);
} catch (err) {
  logger.warn(`could not make the data folder ${config.dataDir} private to this user (${err instanceof Error ? err.message : String(err)})`);
}

try {
  const server = await startServer(config, { logger });
  logger.info(`Kindred is running at ${server.url} (database: ${server.database.kind}${config.databaseUrl ? '' : ` in ${config.dataDir}`}; stored files: ${describeStorage(config)})`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C (or signal) means now: replies still streaming are not waited for.
      logger.warn(`${signal} received again, stopping at once`);
      process.exit(1);
    }
    stopping = true;
    logger.info(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (err) {
  if (err instanceof DataDirLockedError) {
    logger.error(err.message);
  } else {
    logger.error('Kindred could not start', err);
  }
  process.exit(1);
}
