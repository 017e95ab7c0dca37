// Migration 0019's indexes exist once the migrations ran, and the admin's "Recently Reviewed"
// query is served by its partial index instead of sorting every reviewed flag (874 ms at 90,000
// reviewed flags, during which the embedded database answers nobody else).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './client';
import { createScratchDatabase } from '../test-support/test-server';
import { recentlyReviewedQuery } from '../modules/moderation/moderation.repository';

let handle: DatabaseHandle;
let dropScratch: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const scratch = adminUrl ? await createScratchDatabase(adminUrl) : undefined;
  dropScratch = scratch?.drop;
  handle = await openDatabase({ databaseUrl: scratch?.databaseUrl });
});
afterAll(async () => {
  await handle?.close();
  await dropScratch?.();
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe('migration 0019: indexes for the admin lists and for deletes', () => {
  it('creates the partial index on reviewed flags and an index on each foreign key a delete looks up', async () => {
    const found = await rows<{ indexname: string; indexdef: string }>(
      sql`select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename in ('content_flags', 'personality_questions', 'personality_public_requests')`,
    );
    const def = (name: string) => found.find((i) => i.indexname === name)?.indexdef;
    expect(def('content_flags_reviewed_idx')).toMatch(/\(reviewed_at DESC\) WHERE \(status <> 'pending'::text\)$/);
    expect(def('content_flags_personality_idx')).toMatch(/\(personality_id\)$/);
    expect(def('content_flags_flagged_by_idx')).toMatch(/\(flagged_by_user_id\)$/);
    expect(def('content_flags_reviewed_by_idx')).toMatch(/\(reviewed_by_user_id\)$/);
    expect(def('personality_questions_user_idx')).toMatch(/\(user_id\)$/);
    expect(def('public_requests_personality_idx')).toMatch(/\(personality_id\)$/);
    expect(def('public_requests_requested_by_idx')).toMatch(/\(requested_by_user_id\)$/);
    expect(def('public_requests_reviewed_by_idx')).toMatch(/\(reviewed_by_user_id\)$/);
  });

  it('"Recently Reviewed" reads the partial index, not every reviewed flag', async () => {
    await handle.db.execute(sql`
      insert into content_flags (source, flag_type, confidence, content_excerpt, status, reviewed_at)
      select 'message', 'harassment', 0.8, 'excerpt ' || g,
        case when g % 10 = 0 then 'pending' when g % 2 = 0 then 'approved' else 'rejected' end,
        case when g % 10 = 0 then null else now() - (g || ' minutes')::interval end
      from generate_series(1, 20000) g`);
    await handle.db.execute(sql`analyze content_flags`);
    const plan = await rows<{ 'QUERY PLAN': string }>(sql`explain ${recentlyReviewedQuery(handle.db, 10)}`);
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('content_flags_reviewed_idx');
    expect(text).not.toMatch(/Seq Scan on content_flags/);
  });
});
