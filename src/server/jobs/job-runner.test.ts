// The job runner during a database outage and with failed statements: it says once that claiming
// fails and waits longer each time (not a stack trace every poll), and a failed statement is
// recorded by the database's reason, never with its parameters (a document's words). A stop stops
// renewing the leases of the jobs it aborts, so a handler slow to notice cannot hold its job.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import type { Logger } from '../lib/logger';
import { startTestServer } from '../test-support/test-server';
import { createJobRunner, describeJobError } from './job-runner';
import { enqueueJob } from './jobs.repository';

function recordingLogger() {
  const lines: string[] = [];
  const logger: Logger = { debug() {}, info: (m) => void lines.push(`INFO ${m}`), warn: (m) => void lines.push(`WARN ${m}`), error: (m) => void lines.push(`ERROR ${m}`) };
  return { logger, lines };
}

describe('job runner', () => {
  it('says once that the database fails and backs off, instead of a line every poll', async () => {
    let claims = 0;
    // Every claim fails as a database that is down would.
    const db = {
      update() {
        claims++;
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
    } as unknown as Database;
    const { logger, lines } = recordingLogger();
    const runner = createJobRunner({ db, handlers: { noop: { run: async () => {}, interruptedMessage: 'x' } }, concurrency: 1, leaseSeconds: 30, pollMs: 10, retryBaseMs: 10, logger });
    runner.start();
    await new Promise((r) => setTimeout(r, 1000));
    await runner.stop();
    // Polling every 10 ms would have made ~100 claims and as many lines in a second.
    expect(claims).toBeLessThanOrEqual(8);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^WARN background jobs: claiming a job failed \(connect ECONNREFUSED/);
  });

  it('a stop while a claim is under way ends when the claim does, without a poll interval more', async () => {
    // Claims that answer when the test says, with no job to run (the database's empty answer).
    let answerClaim!: () => void;
    let claimed!: () => void;
    const claimStarted = new Promise<void>((r) => (claimed = r));
    const db = {
      update: () => ({
        set: () => ({
          where: () => ({
            returning: () => {
              claimed();
              return new Promise<unknown[]>((r) => (answerClaim = () => r([])));
            },
          }),
        }),
      }),
    } as unknown as Database;
    // Ten minutes between polls: a stop that waited one out would pass the test's time limit.
    const runner = createJobRunner({ db, handlers: { noop: { run: async () => {}, interruptedMessage: 'x' } }, concurrency: 1, leaseSeconds: 30, pollMs: 600_000, retryBaseMs: 10, logger: recordingLogger().logger });
    runner.start();
    await claimStarted;
    const stopped = runner.stop();
    answerClaim();
    await stopped;
  });

  it('records a failed statement by the database reason, without its SQL parameters', () => {
    const cause = Object.assign(new Error('could not extend file "base/5/16384": No space left on device'), { code: '53100' });
    const failed = new Error('Failed query: insert into "personality_document_chunks" ("content") values ($1)\nparams: the private words of an upload', { cause });
    const text = describeJobError(failed);
    expect(text).toBe('a database statement failed: could not extend file "base/5/16384": No space left on device');
    expect(text).not.toContain('private words');
    expect(describeJobError(new Error('The file is corrupt'))).toBe('The file is corrupt');
  });

  it('a stop renews no lease: a job whose handler is slow to stop is free for another process when its lease ends, then handed back', async () => {
    const server = await startTestServer({ env: { JOB_CONCURRENCY: '0' } });
    try {
      const { db } = server.database;
      const { job } = await enqueueJob(db, { kind: 'test.slow-to-stop', maxAttempts: 3 });
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      let letGo!: () => void;
      const held = new Promise<void>((r) => (letGo = r));
      // A handler that notices the stop only when the test lets it (a call that ignores its signal).
      const handler = {
        run: async ({ signal }: { signal: AbortSignal }) => {
          started();
          await held;
          signal.throwIfAborted();
        },
        interruptedMessage: 'x',
      };
      const runner = createJobRunner({ db, handlers: { 'test.slow-to-stop': handler }, concurrency: 1, leaseSeconds: 1, pollMs: 20, retryBaseMs: 10, logger: recordingLogger().logger });
      runner.start();
      await running;
      const stopped = runner.stop();
      const row = async () =>
        ((await db.execute(sql`select status, locked_by, locked_until, locked_until < now() as expired from jobs where id = ${job.id}`)) as unknown as {
          rows: { status: string; locked_by: string | null; locked_until: string | null; expired: boolean | null }[];
        }).rows[0]!;
      // Renewed every third of a second while it ran; after the stop, the lease runs out.
      const deadline = Date.now() + 10_000;
      while (!(await row()).expired) {
        if (Date.now() > deadline) throw new Error('the stopping process kept renewing the lease');
        await new Promise((r) => setTimeout(r, 100));
      }
      letGo();
      await stopped;
      expect(await row()).toMatchObject({ status: 'queued', locked_by: null, locked_until: null });
    } finally {
      await server.close();
    }
  }, 30_000);
});
