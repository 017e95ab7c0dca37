// The only file that listens: reads the environment once, starts, and shuts down cleanly.
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

try {
  const server = await startServer(config, { logger });
  logger.info(`Kindred is running at ${server.url} (database: ${server.database.kind}${config.databaseUrl ? '' : ` in ${config.dataDir}`}; stored files: ${describeStorage(config)})`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
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
