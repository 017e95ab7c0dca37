import type { Database } from '../../db/client';
import { userFeedback } from '../../db/schema/feedback';

export async function insertFeedback(db: Database, row: typeof userFeedback.$inferInsert): Promise<string> {
  const rows = await db.insert(userFeedback).values(row).returning({ id: userFeedback.id });
  return rows[0]!.id;
}
