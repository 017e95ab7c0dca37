import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiRateLimits } from '../../db/schema/rate-limits';

/** Adds one hit to the fixed window and returns the window's count, atomically. */
export async function countHit(
  db: Database,
  hit: { endpoint: string; subject: string; windowStart: Date; userId: string | null; ipAddress: string | null },
): Promise<number> {
  const rows = await db
    .insert(apiRateLimits)
    .values({ ...hit, requestCount: 1 })
    .onConflictDoUpdate({
      target: [apiRateLimits.endpoint, apiRateLimits.subject, apiRateLimits.windowStart],
      set: { requestCount: sql`${apiRateLimits.requestCount} + 1` },
    })
    .returning({ count: apiRateLimits.requestCount });
  return rows[0]?.count ?? 1;
}
