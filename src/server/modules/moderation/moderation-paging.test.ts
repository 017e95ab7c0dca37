// The Content Moderation list over real HTTP when there are many flags: the true number pending,
// the pending flags a page at a time (newest first, every one reachable exactly once), and the
// spec's 10 most recently reviewed. Flags are inserted with SQL: only the listing is under test.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { PENDING_FLAGS_PAGE } from './moderation.service';

const ADMIN_EMAIL = 'pager@example.com';
const PENDING = 2 * PENDING_FLAGS_PAGE + 20;
let server: TestServer;
let admin: TestClient;

interface FlagPage {
  pending: { id: string; status: string; createdAt: string }[];
  pendingTotal: number;
  nextCursor: string | null;
  recent: { id: string; status: string }[];
}

beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
  admin = await server.user(ADMIN_EMAIL);
  // Three flags share each timestamp and neighbouring timestamps differ by one microsecond: the
  // page boundary must neither repeat nor skip a flag that ties, nor lose sub-millisecond order.
  await server.database.db.execute(sql`
    insert into content_flags (source, flag_type, confidence, content_excerpt, status, created_at)
    select 'message', 'harassment', 0.8, 'pending excerpt ' || g, 'pending',
      '2025-06-01T12:00:00Z'::timestamptz - ((g / 3) || ' microseconds')::interval
    from generate_series(1, ${PENDING}) g`);
  await server.database.db.execute(sql`
    insert into content_flags (source, flag_type, confidence, content_excerpt, status, reviewed_at, created_at)
    select 'message', 'harassment', 0.8, 'reviewed excerpt ' || g, case when g % 2 = 0 then 'approved' else 'rejected' end,
      '2025-06-02T12:00:00Z'::timestamptz - (g || ' minutes')::interval, '2025-05-01T12:00:00Z'
    from generate_series(1, 15) g`);
});
afterAll(async () => {
  await server?.close();
});

async function page(cursor?: string | null): Promise<FlagPage> {
  const res = await admin.get(`/api/admin/content-flags${cursor ? `?before=${encodeURIComponent(cursor)}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as FlagPage;
}

async function allPendingPages(): Promise<FlagPage[]> {
  const pages = [await page()];
  while (pages.at(-1)!.nextCursor) pages.push(await page(pages.at(-1)!.nextCursor));
  return pages;
}

async function pendingIdsNewestFirst(): Promise<string[]> {
  const res = (await server.database.db.execute(
    sql`select id from content_flags where status = 'pending' order by created_at desc, id desc`,
  )) as unknown as { rows: { id: string }[] };
  return res.rows.map((r) => r.id);
}

describe('the pending flags, a page at a time', () => {
  it('counts every pending flag, and pages through all of them newest first, each once', async () => {
    const first = await page();
    expect(first.pendingTotal).toBe(PENDING);
    expect(first.pending).toHaveLength(PENDING_FLAGS_PAGE);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(first.recent).toHaveLength(10);

    const pages = await allPendingPages();
    expect(pages.map((p) => p.pending.length)).toEqual([PENDING_FLAGS_PAGE, PENDING_FLAGS_PAGE, 20]);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    const seen = pages.flatMap((p) => p.pending.map((f) => f.id));
    expect(seen).toEqual(await pendingIdsNewestFirst());
    expect(pages.every((p) => p.pendingTotal === PENDING)).toBe(true);
  });

  it('the "Recently Reviewed" list stays the 10 latest reviews, newest first', async () => {
    const { recent } = await page();
    expect(recent.map((f) => f.status).every((s) => s !== 'pending')).toBe(true);
    const res = (await server.database.db.execute(
      sql`select id from content_flags where status <> 'pending' order by reviewed_at desc limit 10`,
    )) as unknown as { rows: { id: string }[] };
    expect(recent.map((f) => f.id)).toEqual(res.rows.map((r) => r.id));
  });

  it('a review takes one off the total, and the flag moves to Recently Reviewed', async () => {
    const before = await page();
    const oldest = (await pendingIdsNewestFirst()).at(-1)!;
    const res = await admin.post(`/api/admin/content-flags/${oldest}/review`, { status: 'rejected' });
    expect(res.status).toBe(200);
    const after = await page();
    expect(after.pendingTotal).toBe(before.pendingTotal - 1);
    expect(after.recent[0]!.id).toBe(oldest);
    const seen = (await allPendingPages()).flatMap((p) => p.pending.map((f) => f.id));
    expect(seen).not.toContain(oldest);
    expect(seen).toHaveLength(before.pendingTotal - 1);
  });

  it('refuses a cursor it did not give (400)', async () => {
    expect((await admin.get('/api/admin/content-flags?before=yesterday')).status).toBe(400);
  });
});
