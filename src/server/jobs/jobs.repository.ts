// The only drizzle importer for jobs. Claiming uses FOR UPDATE SKIP LOCKED so several workers (in
// one process or many) never take the same job; a running job whose lease has expired (its
// process died) is claimable again. Times come from the database clock, shared by all processes.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs } from '../db/schema/jobs';

export type JobRow = typeof jobs.$inferSelect;
export type DbOrTx = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface NewJob {
  kind: string;
  documentId?: string | null;
  dedupeKey?: string | null;
  payload?: Record<string, unknown>;
  maxAttempts: number;
}

/**
 * Queues a job. With a dedupe key, a second active job for the same key is not created: the
 * existing one is returned with `created: false`.
 */
export async function enqueueJob(db: DbOrTx, job: NewJob): Promise<{ job: JobRow; created: boolean }> {
  const inserted = await db
    .insert(jobs)
    .values({
      kind: job.kind,
      documentId: job.documentId ?? null,
      dedupeKey: job.dedupeKey ?? null,
      payload: job.payload ?? {},
      maxAttempts: job.maxAttempts,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey, where: sql`status in ('queued', 'running')` })
    .returning();
  if (inserted[0]) return { job: inserted[0], created: true };
  const existing = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.dedupeKey, job.dedupeKey ?? ''), sql`${jobs.status} in ('queued', 'running')`))
    .limit(1);
  return { job: existing[0]!, created: false };
}

/** Takes the next due job of one of `kinds` (queued, or running with an expired lease). */
export async function claimJob(db: Database, kinds: string[], token: string, leaseSeconds: number): Promise<JobRow | undefined> {
  const kindList = sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const rows = await db
    .update(jobs)
    .set({
      status: 'running',
      lockedBy: token,
      lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})`,
      attempts: sql`${jobs.attempts} + 1`,
      updatedAt: sql`now()`,
    })
    .where(
      eq(
        jobs.id,
        sql`(select j.id from ${jobs} j
          where j.kind in (${kindList})
            and ((j.status = 'queued' and j.run_after <= now()) or (j.status = 'running' and j.locked_until < now()))
          order by j.run_after, j.created_at
          limit 1
          for update skip locked)`,
      ),
    )
    .returning();
  return rows[0];
}

/** Extends the lease; false when the job is no longer ours (reclaimed, or deleted with its document). */
export async function extendLease(db: Database, jobId: string, token: string, leaseSeconds: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, token), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Inside a transaction that commits a job's results: locks the job row and says whether it is
 * still ours. A worker that lost its lease (or whose document was deleted) must not commit.
 */
export async function holdsJob(tx: DbOrTx, jobId: string, token: string): Promise<boolean> {
  const rows = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, token), eq(jobs.status, 'running')))
    .for('update');
  return rows.length > 0;
}

/**
 * Saves a job's checkpoint (its payload) while the job is still ours, so another attempt after a
 * crash or restart starts from there (a long transcription resumes at its next piece).
 */
export async function saveJobPayload(db: DbOrTx, jobId: string, token: string, payload: Record<string, unknown>): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ payload })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, token), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Gives a job still waiting in the queue (not running) a new payload and a fresh set of attempts,
 * due now: a person's request that asks for more than the waiting job will do takes its place.
 * False when the job is running (or gone) meanwhile.
 */
export async function replaceQueuedJob(db: DbOrTx, jobId: string, payload: Record<string, unknown>): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ payload, attempts: 0, lastError: null, runAfter: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, 'queued')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Done jobs are deleted: the document keeps the outcome. */
export async function completeJob(db: DbOrTx, jobId: string, token: string): Promise<boolean> {
  const rows = await db
    .delete(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, token)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Schedules another attempt after `delayMs`. */
export async function retryJob(db: DbOrTx, jobId: string, token: string, error: string, delayMs: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'queued',
      lockedBy: null,
      lockedUntil: null,
      lastError: error,
      runAfter: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, token)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Gives up: the job stays as failed with its error (until the document is processed again or deleted). */
export async function failJob(db: DbOrTx, jobId: string, token: string, error: string): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ status: 'failed', lockedBy: null, lockedUntil: null, lastError: error, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, token)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Hands the job back to the queue at once, without counting the attempt: on a clean shutdown, or
 * when a long job steps aside (with its checkpoint as the new payload). It is due now, so it runs
 * again after the jobs that were already due (claims go by run_after).
 */
export async function releaseJob(db: Database, jobId: string, token: string, payload?: Record<string, unknown>): Promise<void> {
  await db
    .update(jobs)
    .set({
      ...(payload ? { payload } : {}),
      status: 'queued',
      lockedBy: null,
      lockedUntil: null,
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
      runAfter: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, token)));
}

/** Whether a job of `kinds` other than `exceptId` is queued and due: someone is waiting. */
export async function jobsWaiting(db: Database, kinds: string[], exceptId: string): Promise<boolean> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.kind, kinds), ne(jobs.id, exceptId), eq(jobs.status, 'queued'), sql`${jobs.runAfter} <= now()`))
    .limit(1);
  return rows.length > 0;
}

/** Removes finished-with-failure jobs of a document before it is queued again. */
export async function deleteFailedJobs(db: DbOrTx, documentId: string): Promise<void> {
  await db.delete(jobs).where(and(eq(jobs.documentId, documentId), eq(jobs.status, 'failed')));
}

export async function activeJobCount(db: Database): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(sql`${jobs.status} in ('queued', 'running')`);
  return rows[0]?.n ?? 0;
}
