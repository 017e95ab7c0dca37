// Removing stored files once their rows are gone. The database is what a person sees: when a
// document or a personality has been deleted there, the request succeeded, whatever object
// storage answers. A file that cannot be removed right now (the storage server down, a passing
// 500) is handed to a durable job that retries with backoff in whichever process claims it, so
// nothing is left behind and nobody is told a deletion failed when it did not.
import type { Database } from '../../db/client';
import type { Logger } from '../../lib/logger';
import { enqueueJob } from '../../jobs/jobs.repository';
import { PermanentJobError, type JobHandler } from '../../jobs/job-runner';
import { assertValidKey, assertValidPrefix, type BlobStorage } from '../../storage/storage';

export const STORAGE_CLEANUP_JOB = 'storage-cleanup';
/** With the runner's exponential backoff, about an hour of retries at the default base delay. */
const MAX_ATTEMPTS = 12;

/** One blob, or everything under a prefix (a personality's folder). */
export type StoredFiles = { key: string } | { prefix: string };

export interface StorageCleanup {
  /** Removes the files now, or queues their removal; never throws. */
  remove(files: StoredFiles): Promise<void>;
  /** The job handler for STORAGE_CLEANUP_JOB. */
  handler: JobHandler;
}

function describe(files: StoredFiles): string {
  return 'key' in files ? files.key : `${files.prefix}*`;
}

async function removeNow(storage: BlobStorage, files: StoredFiles): Promise<void> {
  if ('key' in files) await storage.delete(files.key);
  else await storage.deletePrefix(files.prefix);
}

export function createStorageCleanup(deps: { db: Database; storage: BlobStorage; logger: Logger; wake(): void }): StorageCleanup {
  return {
    async remove(files) {
      try {
        await removeNow(deps.storage, files);
      } catch (err) {
        deps.logger.warn(`could not remove stored ${describe(files)} now; retrying in the background`, err instanceof Error ? err.message : err);
        try {
          await enqueueJob(deps.db, { kind: STORAGE_CLEANUP_JOB, dedupeKey: `storage:${describe(files)}`, payload: { ...files }, maxAttempts: MAX_ATTEMPTS });
          deps.wake();
        } catch (queueErr) {
          deps.logger.error(`could not queue the removal of stored ${describe(files)}`, queueErr instanceof Error ? queueErr.message : queueErr);
        }
      }
    },
    handler: {
      async run({ job }) {
        const payload = job.payload as { key?: unknown; prefix?: unknown };
        // Keys and prefixes are checked again: a job row is data, never a path to trust.
        if (typeof payload.key === 'string') {
          assertValidKey(payload.key);
          await deps.storage.delete(payload.key);
        } else if (typeof payload.prefix === 'string') {
          assertValidPrefix(payload.prefix);
          await deps.storage.deletePrefix(payload.prefix);
        } else {
          throw new PermanentJobError('a storage cleanup job names neither a key nor a prefix');
        }
      },
      async onError(job, error, willRetry) {
        if (!willRetry) deps.logger.error(`gave up removing stored ${describe(job.payload as StoredFiles)}: ${error}`);
      },
      interruptedMessage: 'Removing stored files was interrupted.',
    },
  };
}
