// Removing cloned voices at ElevenLabs once nothing uses them (their personality deleted, or the
// clone replaced). Each clone takes a paid voice slot in the operator's ElevenLabs account, and
// once the slots are full new clones fail; so a removal that fails for a reason that may pass
// (ElevenLabs unreachable, a timeout, a 5xx or 429, a key the operator may yet correct) is handed
// to a durable job that retries with backoff in whichever process claims it, as stored files are
// (documents/storage-cleanup.ts). The person's request never fails on ElevenLabs, and waits for it
// at most INLINE_BUDGET_MS.
import type { Database } from '../../db/client';
import type { Logger } from '../../lib/logger';
import { enqueueJob } from '../../jobs/jobs.repository';
import { PermanentJobError, type JobHandler } from '../../jobs/job-runner';
import type { VoiceCloning } from '../../ai/speech/elevenlabs-voice-cloning';
import { SpeechProviderError } from '../../ai/speech/speech-types';

export const VOICE_CLONE_CLEANUP_JOB = 'voice-clone-cleanup';
/** With the runner's exponential backoff, several hours of retries at the default base delay. */
const MAX_ATTEMPTS = 12;
/** ElevenLabs voice ids are short letters and digits; a job row is data, never a path to trust. */
const VOICE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export interface VoiceCloneCleanup {
  /** Removes the voice at ElevenLabs now, or queues its removal; never throws. */
  remove(voiceId: string): Promise<void>;
  /** The handler for VOICE_CLONE_CLEANUP_JOB, for the job runner. */
  jobHandlers: Record<string, JobHandler>;
  /** The job runner's wake-up, so a queued removal is tried at once (start.ts). */
  bindWake(wake: () => void): void;
}

/**
 * Whether another try later may succeed. Refusals of the request itself (400, 422: a voice id
 * ElevenLabs will never accept) will not; a refused key (401/403) may, once the operator corrects
 * ELEVENLABS_API_KEY, and the job's bounded attempts keep it from being tried for ever. A 404 never
 * gets here: VoiceCloning.remove counts it as already removed.
 */
export function mayPassLater(err: unknown): boolean {
  const status = err instanceof SpeechProviderError ? err.status : undefined;
  if (status === undefined || status >= 500) return true;
  return [401, 403, 408, 429].includes(status);
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * How long a person's delete (or new clone) waits for ElevenLabs to remove the old voice before it
 * answers and leaves the removal to the job: the SDK's own timeout is 120 s, past a proxy's.
 */
const INLINE_BUDGET_MS = 5000;

class InlineBudgetSpent extends Error {
  constructor() {
    super('ElevenLabs did not answer in time');
  }
}

/** `work` (which goes on regardless: a late success makes the job's DELETE a 404, i.e. done), or a timeout. */
function withinInlineBudget(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const spent = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new InlineBudgetSpent()), ms)));
  work.catch(() => undefined); // a failure after the budget is the job's to retry
  return Promise.race([work, spent]).finally(() => clearTimeout(timer));
}

export function createVoiceCloneCleanup(deps: { db: Database; logger: Logger; cloning?: VoiceCloning; inlineBudgetMs?: number }): VoiceCloneCleanup {
  let wake = () => {};

  async function queueRemoval(voiceId: string) {
    try {
      await enqueueJob(deps.db, { kind: VOICE_CLONE_CLEANUP_JOB, dedupeKey: `voice-clone:${voiceId}`, payload: { voiceId }, maxAttempts: MAX_ATTEMPTS });
      wake();
    } catch (err) {
      deps.logger.error(`could not queue the removal of cloned voice ${voiceId} at ElevenLabs; remove it in the ElevenLabs account`, reasonOf(err));
    }
  }

  const handler: JobHandler = {
    async run({ job }) {
      const voiceId = (job.payload as { voiceId?: unknown }).voiceId;
      if (typeof voiceId !== 'string' || !VOICE_ID.test(voiceId)) throw new PermanentJobError('a voice clone cleanup job names no valid voice id');
      // A process without ELEVENLABS_API_KEY cannot remove it; one with the key may (bounded).
      if (!deps.cloning) throw new Error('ELEVENLABS_API_KEY is not set in this process');
      try {
        await deps.cloning.remove(voiceId);
      } catch (err) {
        if (!mayPassLater(err)) throw new PermanentJobError(reasonOf(err));
        throw err;
      }
    },
    async onError(job, error, willRetry) {
      if (willRetry) return;
      const voiceId = String((job.payload as { voiceId?: unknown }).voiceId);
      const attempts = `${job.attempts} attempt${job.attempts === 1 ? '' : 's'}`;
      deps.logger.warn(`gave up removing cloned voice ${voiceId} at ElevenLabs after ${attempts} (${JSON.stringify(error)}): remove it in the ElevenLabs account (Voices) to free its slot`);
    },
    interruptedMessage: 'Removing a cloned voice at ElevenLabs was interrupted.',
  };

  return {
    async remove(voiceId) {
      if (!deps.cloning) return;
      try {
        await withinInlineBudget(deps.cloning.remove(voiceId), deps.inlineBudgetMs ?? INLINE_BUDGET_MS);
      } catch (err) {
        if (!mayPassLater(err)) {
          deps.logger.warn(`could not remove cloned voice ${voiceId} at ElevenLabs; remove it in the ElevenLabs account`, reasonOf(err));
          return;
        }
        deps.logger.warn(`could not remove cloned voice ${voiceId} at ElevenLabs now; retrying in the background`, reasonOf(err));
        await queueRemoval(voiceId);
      }
    },
    jobHandlers: { [VOICE_CLONE_CLEANUP_JOB]: handler },
    bindWake(fn) {
      wake = fn;
    },
  };
}
