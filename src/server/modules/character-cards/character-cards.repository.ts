// The only drizzle importer for character cards: the imported personality's card fields, and its
// removal when an import cannot finish (rows that hang off it cascade in the database).
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { personalities } from '../../db/schema/personalities';

export async function setLorebookDocument(db: Database, personalityId: string, documentId: string): Promise<void> {
  await db.update(personalities).set({ lorebookDocumentId: documentId }).where(eq(personalities.id, personalityId));
}

export async function deleteImported(db: Database, personalityId: string, ownerId: string): Promise<void> {
  await db.delete(personalities).where(and(eq(personalities.id, personalityId), eq(personalities.userId, ownerId)));
}
