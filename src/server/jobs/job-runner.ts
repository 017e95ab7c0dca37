// Runs queued jobs in this process: `concurrency` loops each claim a job, run its handler while a
// heartbeat keeps the lease, then complete, retry (with backoff) or fail it. A handler whose lease
// is lost, or a server that stops, sees its signal aborted; on a clean stop the job is handed back
// at once, on a crash its lease expires and another process (or the next start) picks it up. A
// stop renews no lease: a handler slow to notice its signal (a call that cannot be interrupted)
// does not keep the job from other processes for longer than its lease.
import crypto from 'node:crypto';
import os from 'node:os';
import type { Database } from '../db/client';
import type { Logger } from '../lib/logger';
import * as repo from './jobs.repository';

export interface JobContext {
  job: repo.JobRow;
  /** This claim's token: pass to repo.holdsJob inside the transaction that commits results. */
  token: string;
  signal: AbortSignal;
  /** Whether another job is queued and due (a long job steps aside for it: JobYield). */
  othersWaiting(): Promise<boolean>;
}

/** Thrown by a handler for an error that another attempt cannot fix (a corrupt file). */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/**
 * Thrown by a handler that has done a slice of a long job and steps aside so waiting jobs are not
 * held up behind it (one person's 2 MB document must not keep everyone else's small ones at 0%
 * for minutes). The job goes back to the queue behind those already due, carrying `payload` as
 * its checkpoint; the attempt is not counted, as it did not fail.
 */
export class JobYield extends Error {
  constructor(readonly payload: Record<string, unknown>) {
    super('the job stepped aside for waiting jobs');
    this.name = 'JobYield';
  }
}

/**
 * What a failed attempt is logged and recorded as. A failed statement's message is its SQL and its
 * parameters, which hold a document's words (an 18 KB log line of someone's upload): only the
 * database's reason is kept ("could not extend file ...: No space left on device").
 */
export function describeJobError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.message.startsWith('Failed query:')) {
    const reason = err.cause instanceof Error ? err.cause.message : 'no reason given';
    return `a database statement failed: ${reason}`;
  }
  return err.message;
}

/** The longest wait between attempts to claim a job while the database keeps failing. */
const MAX_CLAIM_BACKOFF_MS = 60_000;

export interface JobHandler {
  run(ctx: JobContext): Promise<void>;
  /** Told about each failed attempt (willRetry) and the final one; `error` is for people. */
  onError?(job: repo.JobRow, error: string, willRetry: boolean): Promise<void>;
  /** The message recorded when a job's process keeps dying under it. */
  interruptedMessage: string;
}

export interface JobRunnerOptions {
  db: Database;
  handlers: Record<string, JobHandler>;
  concurrency: number;
  leaseSeconds: number;
  pollMs: number;
  retryBaseMs: number;
  logger: Logger;
}

export interface JobRunner {
  start(): void;
  /** Checks for work now (after a job was queued in this process). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * A fresh claim token that also says which process holds the job (host/pid/random), so a person
 * (or a test) reading `jobs.locked_by` knows whose lease it is. Only equality is ever checked.
 */
export function newClaimToken(): string {
  return `${os.hostname()}/${process.pid}/${crypto.randomUUID()}`;
}

export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  const kinds = Object.keys(opts.handlers);
  const running = new Map<string, { controller: AbortController; beat: NodeJS.Timeout }>();
  let sleepers: (() => void)[] = [];
  let loops: Promise<void>[] = [];
  let stopping = false;

  const wake = () => {
    const s = sleepers;
    sleepers = [];
    for (const fn of s) fn();
  };

  // A stop wakes the sleepers of the moment; a loop whose claim was under way then must not start
  // a new pause (a stop right after a start waited a whole poll interval).
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      sleepers.push(done);
    });

  async function runOne(job: repo.JobRow, token: string) {
    const handler = opts.handlers[job.kind]!;
    if (job.attempts > job.maxAttempts) {
      // Claimed again after its process died once too often.
      await repo.failJob(opts.db, job.id, token, handler.interruptedMessage);
      await handler.onError?.(job, handler.interruptedMessage, false);
      return;
    }
    const controller = new AbortController();
    const beat = setInterval(() => {
      repo.extendLease(opts.db, job.id, token, opts.leaseSeconds).then(
        (ours) => {
          if (!ours) controller.abort(new Error('lease lost'));
        },
        (err) => opts.logger.warn(`job ${job.id}: lease extension failed`, err),
      );
    }, Math.max(200, (opts.leaseSeconds * 1000) / 3));
    running.set(job.id, { controller, beat });
    try {
      const othersWaiting = () => repo.jobsWaiting(opts.db, kinds, job.id);
      await handler.run({ job, token, signal: controller.signal, othersWaiting });
      await repo.completeJob(opts.db, job.id, token);
    } catch (err) {
      if (err instanceof JobYield && !controller.signal.aborted) {
        await repo.releaseJob(opts.db, job.id, token, err.payload);
        return;
      }
      if (stopping && controller.signal.aborted) {
        // The payload stays as the handler last saved it (saveJobPayload): its checkpoint, where
        // the next start resumes (a document whose chunks are stored only embeds the rest).
        await repo.releaseJob(opts.db, job.id, token).catch(() => {});
        return;
      }
      if (controller.signal.aborted) return; // lease lost: someone else owns it now
      const message = describeJobError(err);
      const permanent = err instanceof PermanentJobError;
      const willRetry = !permanent && job.attempts < job.maxAttempts;
      if (!permanent) opts.logger.warn(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${message}`);
      const recorded = willRetry
        ? await repo.retryJob(opts.db, job.id, token, message, opts.retryBaseMs * 2 ** (job.attempts - 1))
        : await repo.failJob(opts.db, job.id, token, message);
      if (recorded) await handler.onError?.(job, message, willRetry);
    } finally {
      clearInterval(beat);
      running.delete(job.id);
    }
  }

  async function loop() {
    // Claims that failed in a row (the database is down): the runner waits longer each time and
    // says so once, not a stack trace every poll (900 lines a minute during an outage).
    let failedClaims = 0;
    while (!stopping) {
      let job: repo.JobRow | undefined;
      const token = newClaimToken();
      try {
        job = await repo.claimJob(opts.db, kinds, token, opts.leaseSeconds);
        if (failedClaims > 0) opts.logger.info('background jobs: the database answers again');
        failedClaims = 0;
      } catch (err) {
        if (stopping) return;
        failedClaims++;
        const waitMs = Math.min(MAX_CLAIM_BACKOFF_MS, opts.pollMs * 2 ** Math.min(failedClaims, 16));
        if (failedClaims === 1) opts.logger.warn(`background jobs: claiming a job failed (${describeJobError(err)}); trying again with growing pauses`);
        await sleep(waitMs);
        continue;
      }
      if (!job) {
        await sleep(opts.pollMs);
        continue;
      }
      try {
        await runOne(job, token);
      } catch (err) {
        opts.logger.error(`job ${job.id} could not be recorded`, err);
      }
    }
  }

  return {
    start() {
      if (loops.length > 0 || kinds.length === 0) return;
      stopping = false;
      loops = Array.from({ length: opts.concurrency }, () => loop());
    },
    wake,
    async stop() {
      stopping = true;
      for (const { controller, beat } of running.values()) {
        clearInterval(beat);
        controller.abort(new Error('server stopping'));
      }
      wake();
      await Promise.all(loops);
      loops = [];
    },
  };
}
