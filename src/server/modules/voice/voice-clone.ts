// POST /api/personalities/{id}/voice/clone: the owner uploads a voice sample (MP3, WAV or M4A by
// its bytes, up to 11 MB) with a name and their confirmation that they may use this voice; the
// sample goes to ElevenLabs instant cloning (official SDK), and the personality then speaks with
// the clone (voice_provider elevenlabs, voice_settings {voice_id, provider, voice_type custom},
// custom_voice_id). The consent is stored with who and when. The sample itself is not kept.
// A clone replaced by a new one, or whose personality is deleted, is removed at the provider; when
// ElevenLabs cannot be reached just then, a background job retries (voice-clone-cleanup.ts).
// Each clone holds a voice slot of the operator's plan, so an account keeps at most
// VOICE_CLONES_PER_ACCOUNT: a personality switched to another voice keeps its clone (to switch
// back) only until a new clone needs that slot.
import crypto from 'node:crypto';
import type { Context } from 'hono';
import { eq } from 'drizzle-orm';
import type { AppEnv } from '../../auth/session';
import type { Database } from '../../db/client';
import { personalities } from '../../db/schema/personalities';
import { voiceCloneConsents } from '../../db/schema/voice';
import { AppError, errorBody } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { readSingleFileForm } from '../../lib/single-file-form';
import { messages } from '../../../shared/messages';
import { AUDIO_MIME, audioProblemMessage, sniffAudio } from '../../ai/speech/audio-file';
import { CloningUnavailableError, type VoiceCloning } from '../../ai/speech/elevenlabs-voice-cloning';
import { SpeechProviderError } from '../../ai/speech/speech-types';
import { loadOwnedPersonality } from '../personalities/personality-access';
import { toPersonalityDto } from '../personalities/personalities.service';
import type { PersonalityRow } from '../personalities/personalities.repository';
import type { VoiceCloneCleanup } from './voice-clone-cleanup';
import { clonesHeldBy, forgetUnusedClones, lockOwnerForClones, type HeldClone } from './voice.repository';

/** Spec section 5: clone samples up to 11 MB. */
export const CLONE_SAMPLE_MAX_BYTES = 11 * 1024 * 1024;
const NAME_MAX = 100;
const DESCRIPTION_MAX = 500;
const CLONE_UPLOAD = /^\/api\/personalities\/[^/]+\/voice\/clone\/?$/;

export function isCloneUploadPath(method: string, path: string): boolean {
  return method === 'POST' && CLONE_UPLOAD.test(path);
}

export interface VoiceCloneDeps {
  db: Database;
  logger: Logger;
  /** Undefined without ELEVENLABS_API_KEY: cloning says how to configure it. */
  cloning?: VoiceCloning;
  /** Removes clones nothing uses any more, retrying in the background when ElevenLabs fails. */
  cleanup: VoiceCloneCleanup;
  /** Cloned voices one account may keep (VOICE_CLONES_PER_ACCOUNT); 0: no cap. */
  clonesPerAccount: number;
}

/**
 * 409, not 429: the account's state refuses it, and waiting changes nothing (a Retry-After would
 * promise otherwise); the owner frees a slot first.
 */
const capReached = (max: number) => new AppError('CONFLICT', messages.voice.cloneLimitReached(max), { details: { clonesPerAccount: max } });

/**
 * Whether one more clone fits the cap beside the ones the owner's other personalities keep, and
 * which unused ones (switched away from) give up their slot for it, least recently changed first.
 * Clones in use are never taken: past the cap with those alone, it is refused.
 */
function roomForClone(held: HeldClone[], max: number): { fits: boolean; reclaim: HeldClone[] } {
  if (max <= 0) return { fits: true, reclaim: [] };
  if (held.filter((h) => h.inUse).length >= max) return { fits: false, reclaim: [] };
  const excess = held.length + 1 - max;
  return { fits: true, reclaim: excess > 0 ? held.filter((h) => !h.inUse).slice(0, excess) : [] };
}

export async function handleVoiceClone(c: Context<AppEnv>, deps: VoiceCloneDeps, personalityId: string) {
  const viewer = c.get('viewer');
  if (!viewer) throw new AppError('UNAUTHENTICATED');
  const personality = await loadOwnedPersonality(deps.db, personalityId, viewer.id);
  if (!deps.cloning) throw new AppError('CLONE_UNAVAILABLE');
  // Refused before the sample is read or sent; checked again, in turn, when the clone is stored.
  if (!roomForClone(await clonesHeldBy(deps.db, viewer.id, personality.id), deps.clonesPerAccount).fits) throw capReached(deps.clonesPerAccount);

  const read = await readSingleFileForm(c.req.raw, CLONE_SAMPLE_MAX_BYTES);
  if (!read.ok) {
    if (read.reason === 'too-large') return c.json(errorBody('PAYLOAD_TOO_LARGE', messages.voice.cloneTooLarge), 413, { connection: 'close' });
    throw new AppError('BAD_REQUEST', read.reason === 'not-multipart' ? messages.documents.notMultipart : messages.documents.uploadMalformed);
  }
  const { fields, file } = read.form;
  if (fields.consent !== 'true') throw new AppError('BAD_REQUEST', messages.voice.cloneConsentRequired);
  if (!file) throw new AppError('BAD_REQUEST', messages.voice.cloneNoFile);
  const sniff = sniffAudio(file.bytes);
  if (!sniff.ok) throw new AppError('BAD_REQUEST', audioProblemMessage(sniff.reason));
  const name = (fields.name ?? '').trim() || personality.name;
  if (Array.from(name).length > NAME_MAX) throw new AppError('BAD_REQUEST', messages.voice.cloneNameTooLong);
  const description = (fields.description ?? '').trim().slice(0, DESCRIPTION_MAX) || undefined;

  let voiceId: string;
  try {
    voiceId = await deps.cloning.clone(
      { name, description, sample: { bytes: file.bytes, fileName: `sample.${sniff.format}`, mimeType: AUDIO_MIME[sniff.format] } },
      c.req.raw.signal,
    );
  } catch (err) {
    if (err instanceof CloningUnavailableError) {
      throw new AppError('CLONE_SUBSCRIPTION', messages.voice.cloneSubscription, { details: { reason: err.message, hint: messages.voice.cloneSubscriptionHint } });
    }
    const reason = err instanceof SpeechProviderError ? err.message : 'ElevenLabs could not be reached';
    deps.logger.warn('voice cloning failed', err instanceof Error ? err.message : err);
    throw new AppError('CLONE_FAILED', messages.voice.cloneFailedReason(reason), { details: { reason } });
  }

  let updated: PersonalityRow | undefined;
  let reclaimed: HeldClone[] = [];
  try {
    updated = await deps.db.transaction(async (tx) => {
      let reclaim: HeldClone[] = [];
      if (deps.clonesPerAccount > 0) {
        // Concurrent clones by this owner take turns here, each counting the ones stored before it.
        await lockOwnerForClones(tx, viewer.id);
        const room = roomForClone(await clonesHeldBy(tx, viewer.id, personality.id), deps.clonesPerAccount);
        if (!room.fits) throw capReached(deps.clonesPerAccount);
        reclaim = room.reclaim;
      }
      const rows = await tx
        .update(personalities)
        .set({
          voiceProvider: 'elevenlabs',
          voiceSettings: { voice_id: voiceId, provider: 'elevenlabs', voice_type: 'custom' },
          customVoiceId: voiceId,
          updatedAt: new Date(),
        })
        .where(eq(personalities.id, personality.id))
        .returning();
      if (rows.length === 0) return undefined;
      reclaimed = await forgetUnusedClones(tx, reclaim);
      await tx.insert(voiceCloneConsents).values({
        personalityId: personality.id,
        userId: viewer.id,
        voiceId,
        voiceName: name,
        sampleSha256: crypto.createHash('sha256').update(file.bytes).digest('hex'),
        consentText: messages.voice.cloneConsentText,
      });
      return rows[0];
    });
  } catch (err) {
    await deps.cleanup.remove(voiceId);
    throw err;
  }
  if (!updated) {
    // Deleted while the clone was being made: nothing may keep the new voice.
    await deps.cleanup.remove(voiceId);
    throw new AppError('NOT_FOUND', messages.personality.notFound);
  }
  for (const old of reclaimed) {
    deps.logger.info(`voice clone ${old.voiceId} (personality ${old.personalityId}, not in use) removed to make room for a new clone within the cap of ${deps.clonesPerAccount}`);
    await deps.cleanup.remove(old.voiceId);
  }
  if (personality.customVoiceId && personality.customVoiceId !== voiceId) await deps.cleanup.remove(personality.customVoiceId);
  return c.json({ personality: toPersonalityDto(updated, viewer.id) }, 201);
}

/**
 * Personality deleted: its cloned voice goes too. A failure never blocks the delete; one that may
 * pass is retried by a background job.
 */
export function removeClonedVoiceOnDelete(deps: Pick<VoiceCloneDeps, 'cleanup'>) {
  return async (row: PersonalityRow) => {
    if (row.customVoiceId) await deps.cleanup.remove(row.customVoiceId);
  };
}
