// Drizzle access for the owner's sharing level and share rows. Every write names the owner in its
// WHERE clause, so a call with the wrong owner changes nothing.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { personalities } from '../../db/schema/personalities';
import { personalityPublicRequests, personalityShares } from '../../db/schema/sharing';
import { user } from '../../db/schema/auth';
import type { SharingType } from '../../../shared/limits';

export type ShareRow = { id: string; userId: string; email: string | null; createdAt: Date };

/** Locks the owner's personality row for the rest of the transaction (undefined: gone or not theirs). */
export async function lockOwned(tx: Database, id: string, ownerId: string) {
  const rows = await tx
    .select({ id: personalities.id, sharingType: personalities.sharingType, isPublic: personalities.isPublic })
    .from(personalities)
    .where(and(eq(personalities.id, id), eq(personalities.userId, ownerId)))
    .for('update');
  return rows[0];
}

export async function setSharingLevel(db: Database, id: string, ownerId: string, sharingType: SharingType, now: Date) {
  const rows = await db
    .update(personalities)
    // Leaving public drops the place in the public order (admin.repository revertToPrivate says why).
    .set({ sharingType, isPublic: sharingType === 'public', ...(sharingType === 'public' ? {} : { displayOrder: null }), updatedAt: now })
    .where(and(eq(personalities.id, id), eq(personalities.userId, ownerId)))
    .returning({ id: personalities.id, sharingType: personalities.sharingType, isPublic: personalities.isPublic });
  return rows[0];
}

/**
 * The owner chose a level other than public: their pending request to go public is withdrawn, so
 * an admin's later approval cannot publish what the owner has since made private or shared only.
 * (An approval that got there first locked the personality row before this; then the owner's
 * level, set after it, is what stands.)
 */
export async function withdrawPendingRequest(db: Database, personalityId: string): Promise<void> {
  await db
    .delete(personalityPublicRequests)
    .where(and(eq(personalityPublicRequests.personalityId, personalityId), eq(personalityPublicRequests.status, 'pending')));
}

export async function listShares(db: Database, personalityId: string): Promise<ShareRow[]> {
  return db
    .select({
      id: personalityShares.id,
      userId: personalityShares.sharedWithUserId,
      email: user.email,
      createdAt: personalityShares.createdAt,
    })
    .from(personalityShares)
    .leftJoin(user, eq(user.id, personalityShares.sharedWithUserId))
    .where(eq(personalityShares.personalityId, personalityId))
    .orderBy(asc(personalityShares.createdAt), asc(personalityShares.id));
}

/** Inserts the share unless that person already has one; undefined means "already added". */
export async function insertShare(
  tx: Database,
  row: { personalityId: string; sharedWithUserId: string; sharedByUserId: string; createdAt: Date },
) {
  const rows = await tx
    .insert(personalityShares)
    .values(row)
    .onConflictDoNothing({ target: [personalityShares.personalityId, personalityShares.sharedWithUserId] })
    .returning({ id: personalityShares.id, createdAt: personalityShares.createdAt });
  return rows[0];
}

export async function deleteShare(db: Database, personalityId: string, shareId: string): Promise<boolean> {
  const rows = await db
    .delete(personalityShares)
    .where(and(eq(personalityShares.id, shareId), eq(personalityShares.personalityId, personalityId)))
    .returning({ id: personalityShares.id });
  return rows.length > 0;
}

/** A recipient leaves a share: only their own row goes (the owner's other shares stay). */
export async function leaveShare(db: Database, personalityId: string, recipientId: string): Promise<boolean> {
  const rows = await db
    .delete(personalityShares)
    .where(and(eq(personalityShares.personalityId, personalityId), eq(personalityShares.sharedWithUserId, recipientId)))
    .returning({ id: personalityShares.id });
  return rows.length > 0;
}

/** E-mail addresses are compared case-insensitively (better-auth stores them lower-cased). */
export async function findUserByEmail(db: Database, email: string) {
  const rows = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .limit(1);
  return rows[0];
}
