// The voice module's storage: ElevenLabs credits per UTC day, each visitor's paid-voice characters
// per UTC day (a weighted window in api_rate_limits), the cloned voices an account holds, and the
// rate-limit rows admins watch.
import { and, asc, desc, eq, gte, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { DbOrTx } from '../../jobs/jobs.repository';
import { elevenlabsUsage } from '../../db/schema/voice';
import { apiRateLimits } from '../../db/schema/rate-limits';
import { limits } from '../../../shared/limits';
import { personalities } from '../../db/schema/personalities';
import { user } from '../../db/schema/auth';
import { countHit, uncountHit, type Hit } from '../rate-limits/rate-limits.repository';
import type { Visitor } from './voice.service';

/**
 * api_rate_limits.endpoint of the paid-voice budget: one window per visitor per UTC day whose
 * count is characters, not requests (so the admin's rate-limit list leaves it out).
 */
export const VISITOR_CHARACTERS_ENDPOINT = 'voice/characters';

/** The UTC day of `d` (YYYY-MM-DD): the key of the site's daily credits and of a visitor's window. */
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** UTC midnight of `now`'s day: where a visitor's paid-voice window starts. */
const visitorDayStart = (now: Date) => new Date(`${utcDay(now)}T00:00:00.000Z`);

/** `characters` counted on the visitor's window for `now`'s UTC day (speech route, open mic, agent calls). */
export const visitorDayHit = (visitor: Visitor, characters: number, now: Date): Hit => ({
  endpoint: VISITOR_CHARACTERS_ENDPOINT,
  subject: visitor.subject,
  windowStart: visitorDayStart(now),
  userId: visitor.userId,
  ipAddress: visitor.ipAddress,
  weight: characters,
});

/** Adds the hit's characters to the visitor's day, atomically across processes; returns the day's total. */
export const addVisitorCharacters = (db: Database, hit: Hit): Promise<number> => countHit(db, hit);

/** The characters the visitor has spent on `now`'s UTC day, without adding any. */
export async function visitorCharactersOn(db: Database, subject: string, now: Date): Promise<number> {
  const rows = await db
    .select({ count: apiRateLimits.requestCount })
    .from(apiRateLimits)
    .where(and(eq(apiRateLimits.endpoint, VISITOR_CHARACTERS_ENDPOINT), eq(apiRateLimits.subject, subject), eq(apiRateLimits.windowStart, visitorDayStart(now))));
  return rows[0]?.count ?? 0;
}

/** Takes the hit's characters back off the visitor's day (refused, or not sent after all). */
export const giveBackVisitorCharacters = (db: Database, hit: Hit): Promise<void> => uncountHit(db, hit);

/**
 * Adds `characters` to the day's count only if the total stays within `limit`, in one statement:
 * the row is locked by the upsert and the condition re-checked against the latest value, so
 * concurrent requests can never spend more than the limit together. Returns the new total, or
 * undefined when the request does not fit.
 */
export async function reserveCredits(db: Database, day: string, characters: number, limit: number): Promise<number | undefined> {
  if (characters > limit) return undefined;
  const rows = await db
    .insert(elevenlabsUsage)
    .values({ date: day, creditsUsed: characters })
    .onConflictDoUpdate({
      target: elevenlabsUsage.date,
      set: { creditsUsed: sql`${elevenlabsUsage.creditsUsed} + excluded.credits_used`, updatedAt: sql`now()` },
      setWhere: sql`${elevenlabsUsage.creditsUsed} + excluded.credits_used <= ${limit}`,
    })
    .returning({ creditsUsed: elevenlabsUsage.creditsUsed });
  return rows[0]?.creditsUsed;
}

/** Gives back a reservation whose request ElevenLabs refused (it charges nothing for those). */
export async function releaseCredits(db: Database, day: string, characters: number): Promise<void> {
  await db
    .update(elevenlabsUsage)
    .set({ creditsUsed: sql`greatest(${elevenlabsUsage.creditsUsed} - ${characters}, 0)`, updatedAt: sql`now()` })
    .where(eq(elevenlabsUsage.date, day));
}

export async function creditsUsedOn(db: Database, day: string): Promise<number> {
  const rows = await db.select({ creditsUsed: elevenlabsUsage.creditsUsed }).from(elevenlabsUsage).where(eq(elevenlabsUsage.date, day));
  return rows[0]?.creditsUsed ?? 0;
}

export interface RateLimitRow {
  endpoint: string;
  requestCount: number;
  windowStart: Date;
  userId: string | null;
  ipAddress: string | null;
}

/**
 * The spec's rate-limit list: windows started in the last 24 hours, newest first, at most 20;
 * but a window at the warning count comes first whatever its age. An hour's window (uploads,
 * feedback, reports) starts before the minute windows opened since, so "newest first" alone hid
 * the very rows the warning icon exists for behind twenty quiet minute windows.
 */
export async function recentRateLimits(db: Database, since: Date, max: number): Promise<RateLimitRow[]> {
  return db
    .select({
      endpoint: apiRateLimits.endpoint,
      requestCount: apiRateLimits.requestCount,
      windowStart: apiRateLimits.windowStart,
      userId: apiRateLimits.userId,
      ipAddress: apiRateLimits.ipAddress,
    })
    .from(apiRateLimits)
    .where(and(gte(apiRateLimits.windowStart, since), ne(apiRateLimits.endpoint, VISITOR_CHARACTERS_ENDPOINT)))
    .orderBy(desc(sql`${apiRateLimits.requestCount} >= ${limits.rateLimitWarningCount}`), desc(apiRateLimits.windowStart), desc(apiRateLimits.requestCount))
    .limit(max);
}

/**
 * Counts credits already spent (an agent's words were spoken before we hear of them), even past
 * the limit; returns the day's new total so the caller can end a call that went over.
 */
export async function addSpentCredits(db: Database, day: string, characters: number): Promise<number> {
  const rows = await db
    .insert(elevenlabsUsage)
    .values({ date: day, creditsUsed: characters })
    .onConflictDoUpdate({
      target: elevenlabsUsage.date,
      set: { creditsUsed: sql`${elevenlabsUsage.creditsUsed} + excluded.credits_used`, updatedAt: sql`now()` },
    })
    .returning({ creditsUsed: elevenlabsUsage.creditsUsed });
  return rows[0]?.creditsUsed ?? characters;
}

/** A cloned voice one of an account's personalities keeps (a voice slot of the ElevenLabs plan). */
export interface HeldClone {
  personalityId: string;
  voiceId: string;
  /** The personality speaks with it; otherwise it was switched to another voice and keeps the clone to switch back. */
  inUse: boolean;
  updatedAt: Date;
}

/** The cloned voices the owner's personalities keep, but `exceptPersonalityId`'s; least recently changed first. */
export async function clonesHeldBy(db: DbOrTx, ownerId: string, exceptPersonalityId: string): Promise<HeldClone[]> {
  const rows = await db
    .select({
      personalityId: personalities.id,
      voiceId: personalities.customVoiceId,
      voiceProvider: personalities.voiceProvider,
      voiceSettings: personalities.voiceSettings,
      updatedAt: personalities.updatedAt,
    })
    .from(personalities)
    .where(and(eq(personalities.userId, ownerId), ne(personalities.id, exceptPersonalityId), isNotNull(personalities.customVoiceId)))
    // Oldest first (the first reclaimed); by id when two were changed at the same moment, so the
    // check before the upload and the one that stores the clone reclaim the same one.
    .orderBy(asc(personalities.updatedAt), asc(personalities.id));
  return rows.map((r) => ({
    personalityId: r.personalityId,
    voiceId: r.voiceId!,
    inUse: r.voiceProvider === 'elevenlabs' && r.voiceSettings?.voice_type === 'custom',
    updatedAt: r.updatedAt,
  }));
}

/**
 * Takes the owner's turn to add a cloned voice: concurrent clones by one person (from any process)
 * wait here, so each counts the others' before checking the cap.
 */
export async function lockOwnerForClones(tx: DbOrTx, ownerId: string): Promise<void> {
  await tx.execute(sql`select id from ${user} where ${user.id} = ${ownerId} for update`);
}

/**
 * These personalities no longer keep their clone, unless one was switched back to it meanwhile: its
 * slot goes to a new one. Returns the clones given up (to be removed at ElevenLabs).
 */
export async function forgetUnusedClones(tx: DbOrTx, clones: HeldClone[]): Promise<HeldClone[]> {
  if (clones.length === 0) return [];
  const rows = await tx
    .update(personalities)
    .set({ customVoiceId: null, updatedAt: new Date() })
    .where(
      and(
        inArray(personalities.id, clones.map((c) => c.personalityId)),
        sql`not (coalesce(${personalities.voiceProvider}, '') = 'elevenlabs' and coalesce(${personalities.voiceSettings}->>'voice_type', '') = 'custom')`,
      ),
    )
    .returning({ personalityId: personalities.id });
  return clones.filter((c) => rows.some((r) => r.personalityId === c.personalityId));
}
