// The only drizzle importer for personalities. Every read filters by who is asking inside the
// SQL (design.md): the visibility predicate below is the single definition of "may see".
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { retryOnDeadlock } from '../../db/deadlock-retry';
import { personalities } from '../../db/schema/personalities';
import { personalityShares } from '../../db/schema/sharing';
import { effectiveSharingType } from '../../../shared/personality-rules';
import { compareNames } from '../../../shared/name-order';

export type PersonalityRow = typeof personalities.$inferSelect;
export type NewPersonalityRow = typeof personalities.$inferInsert;

/** sharing_type with the spec's fallback (public if is_public else private). */
export const effectiveSharingSql = sql<string>`coalesce(${personalities.sharingType}, case when ${personalities.isPublic} then 'public' else 'private' end)`;
export const isPublicSql = sql<boolean>`(${effectiveSharingSql} = 'public')`;

/**
 * May `viewerId` see a personality: public ones for everyone; for a signed-in viewer also their
 * own, and ones shared with them while the owner keeps the level at "shared".
 */
export function visibleTo(viewerId: string | null): SQL {
  if (!viewerId) return isPublicSql;
  return sql`(${isPublicSql} or ${personalities.userId} = ${viewerId} or (${effectiveSharingSql} = 'shared' and exists (
    select 1 from ${personalityShares} s where s.personality_id = ${personalities.id} and s.shared_with_user_id = ${viewerId})))`;
}

export async function listVisible(db: Database, viewerId: string | null): Promise<PersonalityRow[]> {
  const rows = await db.select().from(personalities).where(visibleTo(viewerId));
  return rows.sort(libraryOrder);
}

/**
 * The library's order: public personalities first, by the admin's order (unset last), then names
 * as a person reads them (shared/name-order.ts: the database's order is by code point, which put
 * "Élodie" after "zebra").
 */
export function libraryOrder(a: PersonalityRow, b: PersonalityRow): number {
  const aPublic = effectiveSharingType(a.sharingType, a.isPublic) === 'public';
  const bPublic = effectiveSharingType(b.sharingType, b.isPublic) === 'public';
  if (aPublic !== bPublic) return aPublic ? -1 : 1;
  return (aPublic ? compareDisplayOrder(a.displayOrder, b.displayOrder) : 0) || compareNames(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Set orders ascending, unset ones after them. */
export function compareDisplayOrder(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

export async function findVisible(db: Database, id: string, viewerId: string | null): Promise<PersonalityRow | undefined> {
  const rows = await db
    .select()
    .from(personalities)
    .where(and(eq(personalities.id, id), visibleTo(viewerId)))
    .limit(1);
  return rows[0];
}

export async function insertPersonality(db: Database, row: NewPersonalityRow): Promise<PersonalityRow> {
  const rows = await db.insert(personalities).values(row).returning();
  return rows[0]!;
}

/** The owner's personality, locked until the transaction ends (an edit compares, then writes). */
export async function findOwnedForUpdate(tx: Database, id: string, ownerId: string): Promise<PersonalityRow | undefined> {
  const rows = await tx
    .select()
    .from(personalities)
    .where(and(eq(personalities.id, id), eq(personalities.userId, ownerId)))
    .for('update');
  return rows[0];
}

/** Updates only when `ownerId` owns it; returns undefined otherwise. */
export async function updateOwned(
  db: Database,
  id: string,
  ownerId: string,
  changes: Partial<NewPersonalityRow>,
  /** Only if it is still the version the editor started from (updated_at, to the millisecond). */
  expectedUpdatedAt?: Date,
): Promise<PersonalityRow | undefined> {
  const rows = await db
    .update(personalities)
    .set({ ...changes, updatedAt: new Date() })
    .where(
      and(
        eq(personalities.id, id),
        eq(personalities.userId, ownerId),
        expectedUpdatedAt ? sql`date_trunc('milliseconds', ${personalities.updatedAt}) = ${expectedUpdatedAt.toISOString()}::timestamptz` : undefined,
      ),
    )
    .returning();
  return rows[0];
}

/**
 * Deletes only when `ownerId` owns it; shares, documents and chunks cascade in the database. The
 * cascade can deadlock with a document job still writing (db/deadlock-retry.ts): run it again.
 */
export async function deleteOwned(db: Database, id: string, ownerId: string): Promise<boolean> {
  const rows = await retryOnDeadlock(() =>
    db
      .delete(personalities)
      .where(and(eq(personalities.id, id), eq(personalities.userId, ownerId)))
      .returning({ id: personalities.id }),
  );
  return rows.length > 0;
}
