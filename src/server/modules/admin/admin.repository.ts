// Drizzle access for the admin dashboard: counts, the public-request queue with display extras,
// public personalities, and the library order. Callers have already been checked as admins.
import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { personalities } from '../../db/schema/personalities';
import { personalityPublicRequests as requests } from '../../db/schema/sharing';
import { user } from '../../db/schema/auth';
import { compareDisplayOrder, effectiveSharingSql, isPublicSql } from '../personalities/personalities.repository';
import { compareNames } from '../../../shared/name-order';
import { olderThan, pageCursorOf, toPage } from './keyset-page';

export async function countPublic(db: Database): Promise<number> {
  const rows = await db.select({ n: count() }).from(personalities).where(isPublicSql);
  return Number(rows[0]?.n ?? 0);
}

export async function countPending(db: Database): Promise<number> {
  const rows = await db.select({ n: count() }).from(requests).where(eq(requests.status, 'pending'));
  return Number(rows[0]?.n ?? 0);
}

// ---- public requests ----

function requestQuery(db: Database) {
  return db
    .select({
      id: requests.id,
      personalityId: requests.personalityId,
      nameSnapshot: requests.personalityNameSnapshot,
      name: personalities.name,
      description: personalities.description,
      behaviorInstructions: personalities.behaviorInstructions,
      requesterEmail: user.email,
      requestMessage: requests.requestMessage,
      status: requests.status,
      createdAt: requests.createdAt,
      reviewedAt: requests.reviewedAt,
      pageCursor: pageCursorOf(requests.createdAt, requests.id),
    })
    .from(requests)
    .leftJoin(personalities, eq(personalities.id, requests.personalityId))
    .leftJoin(user, eq(user.id, requests.requestedByUserId));
}

export type AdminRequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

export async function findRequest(db: Database, id: string) {
  const rows = await requestQuery(db).where(eq(requests.id, id)).limit(1);
  return rows[0];
}

/**
 * One page of pending requests, newest first (the spec lists requests by created_at descending),
 * after `before` (the previous page's nextCursor); public_requests_status_idx serves it.
 */
export async function listPendingRequests(db: Database, page: { size: number; before?: string }) {
  const pending = eq(requests.status, 'pending');
  const rows = await requestQuery(db)
    .where(page.before ? and(pending, olderThan(requests.createdAt, requests.id, page.before)) : pending)
    .orderBy(desc(requests.createdAt), desc(requests.id))
    .limit(page.size + 1);
  return toPage(rows, page.size);
}

export async function listRecentReviews(db: Database, limit: number) {
  return requestQuery(db)
    .where(ne(requests.status, 'pending'))
    .orderBy(sql`${requests.reviewedAt} desc nulls last`, desc(requests.createdAt))
    .limit(limit);
}

export async function findRequestState(db: Database, id: string) {
  const rows = await db
    .select({ id: requests.id, personalityId: requests.personalityId, status: requests.status })
    .from(requests)
    .where(eq(requests.id, id))
    .limit(1);
  return rows[0];
}

/** Locks the personality row until the transaction ends; a concurrent delete waits or has won. */
export async function lockPersonality(tx: Database, id: string) {
  const rows = await tx.select({ id: personalities.id }).from(personalities).where(eq(personalities.id, id)).for('update');
  return rows[0];
}

/** Reviews a request only while it is still pending (and, when given, still points at that personality). */
export async function markReviewed(
  db: Database,
  id: string,
  review: { status: 'approved' | 'rejected'; reviewerId: string; at: Date; personalityId?: string },
): Promise<boolean> {
  const conditions = [eq(requests.id, id), eq(requests.status, 'pending')];
  if (review.personalityId) conditions.push(eq(requests.personalityId, review.personalityId));
  const rows = await db
    .update(requests)
    .set({ status: review.status, reviewedByUserId: review.reviewerId, reviewedAt: review.at, updatedAt: review.at })
    .where(and(...conditions))
    .returning({ id: requests.id });
  return rows.length > 0;
}

export async function makePublic(db: Database, id: string, at: Date): Promise<void> {
  await db.update(personalities).set({ sharingType: 'public', isPublic: true, updatedAt: at }).where(eq(personalities.id, id));
}

// ---- public personalities ----

function publicQuery(db: Database) {
  return db
    .select({
      id: personalities.id,
      name: personalities.name,
      description: personalities.description,
      creatorEmail: user.email,
      createdAt: personalities.createdAt,
      updatedAt: personalities.updatedAt,
      sharingType: effectiveSharingSql,
      isPublic: personalities.isPublic,
      displayOrder: personalities.displayOrder,
      hasAvatar: sql<boolean>`${personalities.avatarKey} is not null`,
    })
    .from(personalities)
    .leftJoin(user, eq(user.id, personalities.userId));
}

export type AdminPersonalityRow = Awaited<ReturnType<typeof listPublicByUpdated>>[number];

export async function listPublicByUpdated(db: Database) {
  return publicQuery(db).where(isPublicSql).orderBy(desc(personalities.updatedAt), asc(personalities.id));
}

/** The library's order for public personalities (personalities.repository listVisible uses the same). */
export async function listPublicByOrder(db: Database) {
  const rows = await publicQuery(db).where(isPublicSql);
  return rows.sort((a, b) => compareDisplayOrder(a.displayOrder, b.displayOrder) || compareNames(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function findAdminPersonality(db: Database, id: string) {
  const rows = await publicQuery(db).where(eq(personalities.id, id)).limit(1);
  return rows[0];
}

export async function personalityExists(db: Database, id: string): Promise<boolean> {
  const rows = await db.select({ id: personalities.id }).from(personalities).where(eq(personalities.id, id)).limit(1);
  return rows.length > 0;
}

/**
 * Public -> private; false when the personality is missing or not public. Its place in the public
 * order goes with it: approved again later, it joins the end instead of taking a number another
 * personality may hold by then.
 */
export async function revertToPrivate(db: Database, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(personalities)
    .set({ sharingType: 'private', isPublic: false, displayOrder: null, updatedAt: at })
    .where(and(eq(personalities.id, id), isPublicSql))
    .returning({ id: personalities.id });
  return rows.length > 0;
}

/** Locks the listed personalities that are public; returns their ids. */
export async function lockPublic(tx: Database, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: personalities.id })
    .from(personalities)
    .where(and(inArray(personalities.id, ids), isPublicSql))
    .for('update');
  return rows.map((r) => r.id);
}

/**
 * One statement for the whole order. updated_at is left alone: the order is library metadata,
 * and touching it would reshuffle the "most recently updated" list on every save.
 */
export async function saveOrder(tx: Database, updates: { id: string; displayOrder: number }[]): Promise<void> {
  if (updates.length === 0) return;
  const values = sql.join(
    updates.map((u) => sql`(${u.id}::uuid, ${u.displayOrder}::integer)`),
    sql`, `,
  );
  await tx.execute(
    sql`update ${personalities} set display_order = v.ord from (values ${values}) as v(id, ord) where ${personalities.id} = v.id`,
  );
}
