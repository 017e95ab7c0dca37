// Drizzle access for an owner's requests to make a personality public. The partial unique index
// public_requests_one_pending is what guarantees one pending request per personality.
import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { personalityPublicRequests } from '../../db/schema/sharing';

const requestColumns = {
  id: personalityPublicRequests.id,
  status: personalityPublicRequests.status,
  requestMessage: personalityPublicRequests.requestMessage,
  createdAt: personalityPublicRequests.createdAt,
  reviewedAt: personalityPublicRequests.reviewedAt,
};

export type OwnerRequestRow = { id: string; status: string; requestMessage: string | null; createdAt: Date; reviewedAt: Date | null };

export async function findLatestRequest(db: Database, personalityId: string): Promise<OwnerRequestRow | undefined> {
  const rows = await db
    .select(requestColumns)
    .from(personalityPublicRequests)
    .where(eq(personalityPublicRequests.personalityId, personalityId))
    .orderBy(desc(personalityPublicRequests.createdAt), desc(personalityPublicRequests.id))
    .limit(1);
  return rows[0];
}

/** Throws the database's unique violation when a pending request already exists. */
export async function insertRequest(
  db: Database,
  row: { personalityId: string; personalityName: string; requestedByUserId: string; requestMessage: string | null; now: Date },
): Promise<OwnerRequestRow> {
  const rows = await db
    .insert(personalityPublicRequests)
    .values({
      personalityId: row.personalityId,
      personalityNameSnapshot: row.personalityName,
      requestedByUserId: row.requestedByUserId,
      requestMessage: row.requestMessage,
      status: 'pending',
      createdAt: row.now,
      updatedAt: row.now,
    })
    .returning(requestColumns);
  return rows[0]!;
}
