// The voice module's only drizzle importer: ElevenLabs credits per UTC day and the rate-limit
// rows admins watch.
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { elevenlabsUsage } from '../../db/schema/voice';
import { apiRateLimits } from '../../db/schema/rate-limits';

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

/** The spec's rate-limit list: windows started in the last 24 hours, newest first, at most 20. */
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
    .where(and(gte(apiRateLimits.windowStart, since)))
    .orderBy(desc(apiRateLimits.windowStart), desc(apiRateLimits.requestCount))
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
