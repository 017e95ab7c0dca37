// Keyset pages for the admin lists that can grow without bound (pending public requests, pending
// content flags), newest first: a page is the rows strictly older than the last row already shown,
// by (created_at, id). Unlike an offset, a row reviewed meanwhile neither shifts the next page nor
// makes it skip a row, and the database reads only the page from its (status, created_at) index.
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { parsePageCursor } from '../../../shared/schemas/admin';

/**
 * The cursor naming a row: its created_at in UTC to the microsecond (a JavaScript Date keeps only
 * milliseconds, and rows created in the same millisecond would repeat or be skipped) and its id.
 */
export function pageCursorOf(createdAt: AnyColumn, id: AnyColumn): SQL<string> {
  return sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || ${id}`;
}

/** Rows after the cursor in (created_at desc, id desc) order; a row comparison the index can serve. */
export function olderThan(createdAt: AnyColumn, id: AnyColumn, cursor: string): SQL {
  const { at, id: cursorId } = parsePageCursor(cursor);
  return sql`(${createdAt}, ${id}) < (${at}::timestamptz, ${cursorId}::uuid)`;
}

/**
 * One more row than the page is read: if it comes back there is a next page, which starts after
 * the page's last row.
 */
export function toPage<T extends { pageCursor: string }>(rows: T[], size: number): { rows: T[]; nextCursor: string | null } {
  if (rows.length <= size) return { rows, nextCursor: null };
  const page = rows.slice(0, size);
  return { rows: page, nextCursor: page.at(-1)!.pageCursor };
}
