import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiRateLimits } from '../../db/schema/rate-limits';

export interface Hit {
  endpoint: string;
  subject: string;
  windowStart: Date;
  userId: string | null;
  ipAddress: string | null;
}

/** Adds one hit to the fixed window and returns the window's count, atomically. */
export async function countHit(db: Database, hit: Hit): Promise<number> {
  return (await countHits(db, [hit]))[0]!;
}

/**
 * Adds one hit to each window, in one statement (open mic's turn counts two limits: one round
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
    (h) => sql`(${h.endpoint}, ${h.subject}, ${h.windowStart.toISOString()}::timestamptz, 1, ${h.userId}, ${h.ipAddress})`,
  );
  return sql`insert into ${apiRateLimits} (endpoint, subject, window_start, request_count, user_id, ip_address)
    values ${sql.join(values, sql`, `)}
    on conflict (endpoint, subject, window_start) do update set request_count = ${apiRateLimits}.request_count + 1
    returning endpoint, subject, request_count as count`;
}
