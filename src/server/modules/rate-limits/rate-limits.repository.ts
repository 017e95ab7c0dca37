import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiRateLimits } from '../../db/schema/rate-limits';

export interface Hit {
  endpoint: string;
  subject: string;
  windowStart: Date;
  userId: string | null;
  ipAddress: string | null;
  /** What this hit adds to the window (1 unless told: a paid voice's budget counts characters). */
  weight?: number;
}

/** Adds one hit (its weight) to the fixed window and returns the window's count, atomically. */
export async function countHit(db: Database, hit: Hit): Promise<number> {
  return (await countHits(db, [hit]))[0]!;
}

/**
 * Adds one hit (its weight) to each window, in one statement (open mic's turn counts two limits: one round
 * trip instead of two waiting their turn in the embedded database's queue). Each count is the
 * same atomic upsert as countHit's; the counts come back in the order of `hits`.
 */
export async function countHits(db: Database, hits: Hit[]): Promise<number[]> {
  const result = await db.execute(countHitsSql(hits));
  const rows = (result as unknown as { rows: { endpoint: string; subject: string; count: number }[] }).rows;
  return hits.map((h) => Number(rows.find((r) => r.endpoint === h.endpoint && r.subject === h.subject)?.count ?? 1));
}

/**
 * The upsert of countHits as SQL, so a caller can run it as a data-modifying WITH inside a
 * statement it runs anyway (the chat's first read): it returns one row per hit with `endpoint`,
 * `subject` and `count`. The windows must differ (PostgreSQL refuses to update a row twice in one
 * statement).
 */
export function countHitsSql(hits: Hit[]): SQL {
  if (hits.length === 0) throw new Error('no hits to count');
  const keys = new Set(hits.map((h) => `${h.endpoint}\n${h.subject}\n${h.windowStart.getTime()}`));
  if (keys.size !== hits.length) throw new Error('the same window counted twice in one statement');
  const values = hits.map(
    (h) => sql`(${h.endpoint}, ${h.subject}, ${h.windowStart.toISOString()}::timestamptz, ${weightOf(h)}::integer, ${h.userId}, ${h.ipAddress})`,
  );
  return sql`insert into ${apiRateLimits} (endpoint, subject, window_start, request_count, user_id, ip_address)
    values ${sql.join(values, sql`, `)}
    on conflict (endpoint, subject, window_start) do update set request_count = ${apiRateLimits}.request_count + excluded.request_count
    returning endpoint, subject, request_count as count`;
}

/**
 * Takes a hit back out of its window (a weighted hit that was refused, or whose work the provider
 * refused): never below zero; a window never counted is left alone.
 */
export async function uncountHit(db: Database, hit: Hit): Promise<void> {
  await db
    .update(apiRateLimits)
    .set({ requestCount: sql`greatest(${apiRateLimits.requestCount} - ${weightOf(hit)}::integer, 0)` })
    .where(and(eq(apiRateLimits.endpoint, hit.endpoint), eq(apiRateLimits.subject, hit.subject), eq(apiRateLimits.windowStart, hit.windowStart)));
}

function weightOf(hit: Hit): number {
  const weight = hit.weight ?? 1;
  if (!Number.isInteger(weight) || weight < 0) throw new Error('a hit weighs a whole number, zero or more');
  return weight;
}
