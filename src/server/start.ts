// Opens everything the app needs and listens. main.ts calls it with the environment's config;
// tests and benchmarks call it with their own (in-memory database, port 0, fake providers).
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from './config';
import { DataDirLockedError, openDatabase, type DatabaseHandle } from './db/client';
import { createLogger, type Logger } from './lib/logger';
import { systemClock, type Clock } from './lib/clock';
import { resolveAuthSecret } from './lib/secrets';
import { createMailer, type Mailer } from './auth/mailer';
import { confirmAccountsWithoutMail, grantListedAdmins } from './auth/roles';
import { createApp } from './app';
import { createJobRunner } from './jobs/job-runner';
import { startHousekeeping } from './jobs/housekeeping';
import { summarizeProviders } from './ai/provider-summary';
import type { BlobStorage } from './storage/storage';
import { removeUnfinishedWrites } from './storage/local-storage';
import { sql } from 'drizzle-orm';
import { INVALIDATION_TOPICS, invalidationBus, setInvalidationBus } from './lib/invalidation-bus';
import { createPgInvalidationBus, type PgInvalidationBus } from './lib/pg-invalidation-bus';
import { setUploadIdleTimeout } from './lib/single-file-form';

export interface StartOptions {
  /** PGlite in memory instead of DATA_DIR (tests). Ignored when config.databaseUrl is set. */
  inMemoryDatabase?: boolean;
  /**
   * With inMemoryDatabase: a PGlite data folder dumped to a tar file (dumpDataDir) the database
   * starts from, instead of a new one (tests: test-support/pglite-image.ts says why).
   */
  inMemoryDatabaseImage?: string;
  logger?: Logger;
  clock?: Clock;
  mailer?: Mailer;
  /** Serve the built front end; defaults to dist/web when it exists. */
  webRoot?: string | null;
  /** Blob storage; defaults to files under DATA_DIR/blobs. */
  storage?: BlobStorage;
  /** false: no housekeeping timer (tests that run its passes themselves, at moments they choose). */
  housekeeping?: boolean;
}

export interface RunningServer {
  url: string;
  port: number;
  database: DatabaseHandle;
  /** Every route the app answers (method and path pattern): the authorization matrix walks them all. */
  routes: ReadonlyArray<{ method: string; path: string }>;
  close(): Promise<void>;
}

/**
 * The HTTP server's own timeouts. headersTimeout: a client gets 30 s to send its request line and
 * headers (a browser needs milliseconds), so connections that never finish them (slowloris) are
 * dropped with 408. requestTimeout: the whole request, body included, must arrive within 5 minutes
 * (Node's default, stated so an upgrade cannot change it): the largest one the web app sends is one
 * 20 MB audio file, about 0.6 Mbit/s; a body that stops arriving is given up much sooner by the
 * upload readers (UPLOAD_IDLE_TIMEOUT_MS). It does not touch the answer: streamed replies and
 * event streams go on as long as they need. No socket idle timeout (server.timeout stays 0): a
 * chat reply, a spoken turn or a document event stream can be quiet for minutes and must not be
 * cut. The connections are checked every 5 s (Node's default, 30 s, let a stuck one live on to
 * twice its limit).
 * keepAliveTimeout: an idle kept-alive connection is closed after 65 s, not Node's 5 s. Whoever
 * closes an idle connection races the other side's next request on it, which is then reset
 * (ECONNRESET; a load balancer answers 502). Load balancers keep idle connections to the app 60 s
 * (AWS ALB, nginx's keepalive_timeout 60-75 s), and a client that reused one after 5 s met the race
 * (a browser flow's API request did, in CI); outliving them leaves the closing to the client.
 */
const HTTP_TIMEOUTS = { headersTimeout: 30_000, requestTimeout: 5 * 60_000, connectionsCheckingInterval: 5_000, keepAliveTimeout: 65_000 } as const;

/** How long shutdown waits for replies still being saved before closing the database. */
const SHUTDOWN_SAVE_WAIT_MS = 10_000;
/** How long replies still streaming may go on at shutdown before they are stopped. */
const SHUTDOWN_REPLY_GRACE_MS = 5_000;
/** How long stopped replies get to send their last line before every connection still open is closed. */
const SHUTDOWN_FLUSH_MS = 1_000;

const defaultWebRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

// PGlite folders opened by this process. The lock file holds a pid, which cannot tell two starts in
// one process (tests, benchmarks) apart, so those are refused here.
const pgliteDirsInUse = new Set<string>();

export async function startServer(config: AppConfig, opts: StartOptions = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const pgliteDir = config.databaseUrl || opts.inMemoryDatabase ? undefined : path.join(config.dataDir, 'pglite');
  if (pgliteDir && pgliteDirsInUse.has(pgliteDir)) throw new DataDirLockedError(pgliteDir, process.pid);
  if (pgliteDir) pgliteDirsInUse.add(pgliteDir);
  const releaseDir = () => {
    if (pgliteDir) pgliteDirsInUse.delete(pgliteDir);
  };
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir, pgliteImage: opts.inMemoryDatabaseImage, logger }).catch((err: unknown) => {
    releaseDir();
    throw err;
  });
  // On PostgreSQL other app processes may share the database: cache invalidations and live
  // document events travel between them through LISTEN/NOTIFY (design.md, Scale-out).
  let bus: PgInvalidationBus | undefined;
  const previousBus = invalidationBus();
  const dropBus = async () => {
    if (!bus) return;
    if (invalidationBus() === bus) setInvalidationBus(previousBus);
    await bus.close();
  };
  try {
    if (database.kind === 'postgres' && config.databaseUrl) {
      bus = createPgInvalidationBus({
        databaseUrl: config.databaseUrl,
        notify: (channel, payload) => database.db.execute(sql`select pg_notify(${channel}, ${payload})`),
        logger,
        topics: INVALIDATION_TOPICS,
      });
      await bus.ready();
      setInvalidationBus(bus);
    }
    const mailer = opts.mailer ?? createMailer(config.smtpUrl, config.smtpFrom, logger);
    if (!mailer.delivers) {
      const confirmed = await confirmAccountsWithoutMail(database.db);
      if (confirmed > 0) logger.info(`no mail server: ${confirmed} account(s) waiting for a confirmation link confirmed`);
    }
    const granted = await grantListedAdmins(database.db, config.adminEmails);
    if (granted > 0) logger.info(`admin role granted to ${granted} account(s) from ADMIN_EMAILS`);
    // Files a killed process left half-written under DATA_DIR/blobs. Only where this process holds
    // the folder's lock (the embedded database): on PostgreSQL another process may be writing there.
    if (pgliteDir && !config.s3 && !opts.storage) {
      const swept = await removeUnfinishedWrites(path.join(config.dataDir, 'blobs'));
      if (swept > 0) logger.info(`storage: ${swept} unfinished upload(s) from an interrupted run removed`);
    }
    const providers = summarizeProviders(config);
    logger.info(providers.line);
    for (const warning of providers.warnings) logger.warn(warning);
    // Listening on every interface while the public address is loopback: pages load from other
    // machines, but sign-up and sign-in answer "Invalid origin" there.
    if (['0.0.0.0', '::'].includes(config.host) && ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(config.publicUrl).hostname)) {
      logger.warn(`HOST=${config.host} listens on every interface, but PUBLIC_URL is ${config.publicUrl}: people on other machines cannot sign in until PUBLIC_URL is the address they use`);
    }
    // Several processes on one PostgreSQL each keep their own DATA_DIR: files must be shared.
    if (config.databaseUrl && !config.s3) {
      logger.warn('DATABASE_URL is set without S3_BUCKET: uploaded files stay in this process\'s DATA_DIR; run several processes only with shared object storage (docs/deployment.md)');
    }
    const webRoot = opts.webRoot === null ? undefined : (opts.webRoot ?? config.webRoot ?? (fs.existsSync(defaultWebRoot) ? defaultWebRoot : undefined));
    const { app, preload, preloadSettled, publishAssets, documents, voiceJobs, drain, stopReplies, close: closeApp } = createApp({
      config,
      database,
      logger,
      clock: opts.clock ?? systemClock,
      mailer,
      authSecret: resolveAuthSecret(config.authSecret, config.dataDir),
      webRoot,
      storage: opts.storage,
    });
    // Spec section 9: the first public personalities' prompt contexts are loaded before serving.
    await preload();
    // Before serving: once a page of this build is out, any process can answer for its assets.
    const published = await publishAssets();
    if (published > 0) logger.info(`web: ${published} built asset(s) copied to shared storage for rolling upgrades`);
    setUploadIdleTimeout(config.uploadIdleTimeoutMs);
    const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host, serverOptions: HTTP_TIMEOUTS });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', () => resolve());
      server.once('error', reject);
    });
    // Background jobs (document processing, removals at storage and ElevenLabs) run in this process
    // unless JOB_CONCURRENCY is 0.
    const jobs = createJobRunner({ db: database.db, handlers: { ...documents.jobHandlers, ...voiceJobs.jobHandlers }, logger, ...config.jobs });
    documents.bindWake(jobs.wake);
    voiceJobs.bindWake(jobs.wake);
    if (config.jobs.concurrency > 0) jobs.start();
    // Rate-limit windows, stale sign-in records, expired sessions and links are removed hourly.
    const housekeeping = opts.housekeeping === false ? { stop: async () => {} } : startHousekeeping({ database, logger, intervalMs: config.housekeepingIntervalMs });
    // Chunks without a vector from the current embedding model (a changed EMBEDDING_MODEL, or the
    // embedded model's first start) are queued for embedding in the background.
    if (config.jobs.concurrency > 0) void documents.queueMissingEmbeddings();
    const port = (server.address() as AddressInfo).port;
    const url = `http://${config.host}:${port}`;
    return {
      url,
      port,
      database,
      routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
      close: async () => {
        documents.endStreams();
        // Replies still streaming get a few seconds to finish; then they stop as Stop would, keeping
        // what was said (a model that fell silent held shutdown for its 90 s idle limit, past
        // any container's grace period, and the reply was lost to the SIGKILL).
        // close() ends the idle kept-alive connections of the moment; one whose answer ends later
        // turns idle and would hold shutdown for keepAliveTimeout (65 s), so idle ones are closed
        // until the server is.
        const http = server as unknown as { closeIdleConnections(): void; closeAllConnections(): void };
        const closeIdle = setInterval(() => http.closeIdleConnections(), 100);
        // Once stopped replies have had a moment to send their last line, whatever is still open is
        // cut: a connection can stay busy with no reply left to wait for (one a browser opened ahead
        // of need and never sent a request on: Node counts it busy until headersTimeout, 30 s).
        let cutOff: NodeJS.Timeout | undefined;
        const graceOver = setTimeout(() => {
          stopReplies();
          cutOff = setTimeout(() => http.closeAllConnections(), SHUTDOWN_FLUSH_MS);
        }, SHUTDOWN_REPLY_GRACE_MS);
        await new Promise<void>((resolve) => server.close(() => resolve()));
        clearInterval(closeIdle);
        clearTimeout(graceOver);
        clearTimeout(cutOff);
        // A reply whose reader left just before is still being checked and saved: its words go
        // to the database before it closes (a few seconds at most; then it is given up, logged).
        if (!(await drain(SHUTDOWN_SAVE_WAIT_MS))) logger.warn('stopping with a reply still being saved: it may be lost');
        await jobs.stop();
        await housekeeping.stop();
        await documents.close();
        closeApp();
        await preloadSettled();
        await dropBus();
        await database.close();
        releaseDir();
      },
    };
  } catch (err) {
    await dropBus().catch(() => {});
    await database.close();
    releaseDir();
    throw err;
  }
}
