// The only drizzle importer for personality_questions. Reads and deletes name the owner in SQL.
import { and, desc, eq, exists, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { personalityQuestions } from '../../db/schema/questions';
import { personalities } from '../../db/schema/personalities';

export type QuestionRow = typeof personalityQuestions.$inferSelect;

function ownedBy(db: Database, personalityId: string, ownerId: string) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(personalities)
      .where(and(eq(personalities.id, personalityId), eq(personalities.userId, ownerId))),
  );
}

/**
 * The question's insert as SQL, for a caller that runs it inside a statement of its own (the chat
 * saves the question with the person's message in one round trip: conversations.repository.ts).
 */
export function insertQuestionSql(row: { personalityId: string; questionText: string; userId: string | null; askedAt: Date }): SQL {
  return sql`insert into ${personalityQuestions} (personality_id, question_text, user_id, asked_at)
    values (${row.personalityId}, ${row.questionText}, ${row.userId}, ${row.askedAt.toISOString()}::timestamptz)`;
}

export async function insertQuestion(
  db: Database,
  row: { personalityId: string; questionText: string; userId: string | null; askedAt: Date },
): Promise<void> {
  await db.insert(personalityQuestions).values(row);
}

export async function listLatest(db: Database, personalityId: string, ownerId: string, limit: number): Promise<QuestionRow[]> {
  return db
    .select()
    .from(personalityQuestions)
    .where(and(eq(personalityQuestions.personalityId, personalityId), ownedBy(db, personalityId, ownerId)))
    .orderBy(desc(personalityQuestions.askedAt), desc(personalityQuestions.id))
    .limit(limit);
}

/** Deletes the questions asked strictly before `cutoff` (the cutoff itself is kept). */
export async function deleteBefore(db: Database, personalityId: string, ownerId: string, cutoff: Date): Promise<number> {
  const rows = await db
    .delete(personalityQuestions)
    .where(
      and(
        eq(personalityQuestions.personalityId, personalityId),
        lt(personalityQuestions.askedAt, cutoff),
        ownedBy(db, personalityId, ownerId),
      ),
    )
    .returning({ id: personalityQuestions.id });
  return rows.length;
}
