// The Public Requests queue over real HTTP when many requests wait: the true number pending (the
// same as the summary card's), the pending requests a page at a time (newest first, each once),
// and the 5 latest reviews. Requests are inserted with SQL: only the listing is under test.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestServer } from '../../test-support/test-server';
import { ADMIN_EMAIL, startSharingServer } from '../sharing/sharing.test-support';
import { PENDING_REQUESTS_PAGE } from './admin.service';

const PENDING = 2 * PENDING_REQUESTS_PAGE + 7;
let server: TestServer;
let admin: TestClient;

interface RequestPage {
  pending: { id: string; personalityName: string }[];
  pendingTotal: number;
  nextCursor: string | null;
  recent: { id: string; status: string }[];
}

beforeAll(async () => {
  server = await startSharingServer();
  admin = await server.user(ADMIN_EMAIL);
  const owner = await server.user();
  // One personality per request (one pending request each). Pairs share a timestamp and
  // neighbours differ by a microsecond: the page boundary must neither repeat nor skip a tie.
  await server.database.db.execute(sql`
    with made as (
      insert into personalities (user_id, name, sharing_type)
      select ${owner.id}, 'Queued ' || g, 'private' from generate_series(1, ${PENDING}) g
      returning id, name
    )
    insert into personality_public_requests (personality_id, personality_name_snapshot, requested_by_user_id, status, created_at)
    select id, name, ${owner.id}, 'pending',
      '2025-06-01T12:00:00Z'::timestamptz - ((substr(name, 8)::int / 2) || ' microseconds')::interval
    from made`);
});
afterAll(async () => {
  await server?.close();
});

async function page(cursor?: string | null): Promise<RequestPage> {
  const res = await admin.get(`/api/admin/public-requests${cursor ? `?before=${encodeURIComponent(cursor)}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as RequestPage;
}

async function allPendingPages(): Promise<RequestPage[]> {
  const pages = [await page()];
  while (pages.at(-1)!.nextCursor) pages.push(await page(pages.at(-1)!.nextCursor));
  return pages;
}

async function pendingIdsNewestFirst(): Promise<string[]> {
  const res = (await server.database.db.execute(
    sql`select id from personality_public_requests where status = 'pending' order by created_at desc, id desc`,
  )) as unknown as { rows: { id: string }[] };
  return res.rows.map((r) => r.id);
}

const summary = async () => (await admin.get('/api/admin/summary')).body as { pendingCount: number };

describe('the pending public requests, a page at a time', () => {
  it('counts every pending request (as the summary card does) and pages through all of them newest first, each once', async () => {
    const first = await page();
    expect(first.pendingTotal).toBe(PENDING);
    expect((await summary()).pendingCount).toBe(PENDING);
    expect(first.pending).toHaveLength(PENDING_REQUESTS_PAGE);

    const pages = await allPendingPages();
    expect(pages.map((p) => p.pending.length)).toEqual([PENDING_REQUESTS_PAGE, PENDING_REQUESTS_PAGE, 7]);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    expect(pages.flatMap((p) => p.pending.map((r) => r.id))).toEqual(await pendingIdsNewestFirst());
  });

  it('a rejection takes one off the total; the request moves to Recent Reviews', async () => {
    const before = await page();
    const oldest = (await pendingIdsNewestFirst()).at(-1)!;
    expect((await admin.post(`/api/admin/public-requests/${oldest}/reject`)).status).toBe(200);
    const after = await page();
    expect(after.pendingTotal).toBe(before.pendingTotal - 1);
    expect((await summary()).pendingCount).toBe(before.pendingTotal - 1);
    expect(after.recent[0]).toMatchObject({ id: oldest, status: 'rejected' });
    expect(after.recent.length).toBeLessThanOrEqual(5);
  });

  it('refuses a cursor it did not give (400)', async () => {
    expect((await admin.get('/api/admin/public-requests?before=not-a-cursor')).status).toBe(400);
  });
});
