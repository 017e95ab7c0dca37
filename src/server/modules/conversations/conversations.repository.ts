// The only drizzle importer for saved conversations. Every statement names the asker: a
// conversation is reachable only by the person who owns it, and only while its personality is
// still visible to them (an unshared recipient loses access to their conversations with it).
import crypto from 'node:crypto';
import { and, asc, desc, eq, exists, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { conversationMessages, conversations, type StoredDocumentReference } from '../../db/schema/conversations';
import { personalities } from '../../db/schema/personalities';
import { visibleTo } from '../personalities/personalities.repository';
import type { MessageKind } from '../../../shared/schemas/conversations';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof conversationMessages.$inferSelect;
export type ConversationSummaryRow = ConversationRow & { messageCount: number };

function personalityVisible(db: Database, viewerId: string): SQL {
  return exists(
    db
      .select({ one: sql`1` })
      .from(personalities)
      .where(and(eq(personalities.id, conversations.personalityId), visibleTo(viewerId))),
  );
}

function ownedAndVisible(db: Database, id: string, viewerId: string): SQL {
  return and(eq(conversations.id, id), eq(conversations.userId, viewerId), personalityVisible(db, viewerId))!;
}

// Qualified by hand: drizzle leaves columns unqualified in a single-table select list, and an
// unqualified "id" inside this subquery would name the message's id.
/** Last activity: the latest message, or the last rename. */
const lastActivity = sql<Date>`greatest("conversations"."updated_at", (select max(m.created_at) from ${conversationMessages} m where m.conversation_id = "conversations"."id"))`.mapWith(
  conversations.updatedAt,
);

const messageCount = sql<number>`(select count(*)::int from ${conversationMessages} m where m.conversation_id = "conversations"."id")`;

export async function findOwned(db: Database, id: string, viewerId: string): Promise<ConversationSummaryRow | undefined> {
  const rows = await db
    .select({ ...conversationColumns(), messageCount })
    .from(conversations)
    .where(ownedAndVisible(db, id, viewerId))
    .limit(1);
  return rows[0];
}

export async function listOwned(db: Database, viewerId: string, personalityId: string): Promise<ConversationSummaryRow[]> {
  return db
    .select({ ...conversationColumns(), messageCount })
    .from(conversations)
    .where(and(eq(conversations.userId, viewerId), eq(conversations.personalityId, personalityId), personalityVisible(db, viewerId)))
    .orderBy(desc(lastActivity), desc(conversations.id));
}

/** A new conversation and its opening greeting, in one statement. */
export async function insertConversation(
  db: Database,
  row: { id?: string; userId: string; personalityId: string; title: string; greeting: string; now: Date },
): Promise<ConversationRow> {
  const id = row.id ?? crypto.randomUUID();
  const at = row.now.toISOString();
  await db.execute(sql`
    with c as (
      insert into ${conversations} (id, user_id, personality_id, title, created_at, updated_at)
      values (${id}, ${row.userId}, ${row.personalityId}, ${row.title}, ${at}::timestamptz, ${at}::timestamptz)
      returning id
    )
    insert into ${conversationMessages} (conversation_id, role, kind, content, created_at)
    select c.id, 'assistant', 'greeting', ${row.greeting}, ${at}::timestamptz from c`);
  return { id, userId: row.userId, personalityId: row.personalityId, title: row.title, createdAt: row.now, updatedAt: row.now };
}

export async function listMessages(db: Database, conversationId: string): Promise<MessageRow[]> {
  return db
    .select()
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id));
}

/**
 * The latest `limit` messages of the asker's own conversation with this personality, oldest
 * first, with its title; undefined when there is no such conversation (every conversation holds
 * its greeting). The caller has checked, in this request, that the personality is visible.
 */
export async function recentHistory(
  db: Database,
  q: { conversationId: string; viewerId: string; personalityId: string; limit: number },
): Promise<{ title: string; messages: Pick<MessageRow, 'role' | 'kind' | 'content'>[] } | undefined> {
  // Only what the prompt needs: references and ids of old replies are not read back.
  const rows = await db
    .select({ role: conversationMessages.role, kind: conversationMessages.kind, content: conversationMessages.content, title: conversations.title })
    .from(conversationMessages)
    .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
    .where(
      and(
        eq(conversations.id, q.conversationId),
        eq(conversations.userId, q.viewerId),
        eq(conversations.personalityId, q.personalityId),
      ),
    )
    .orderBy(desc(conversationMessages.createdAt), desc(conversationMessages.id))
    .limit(q.limit);
  if (rows.length === 0) return undefined;
  return { title: rows[0]!.title, messages: rows.reverse().map(({ title: _title, ...m }) => m) };
}

/**
 * Adds a message. A conversation's last activity is its latest message (no update per message:
 * cheaper, and no dead row versions piling up in an embedded database without autovacuum). With
 * `rename`, the conversation is retitled in the same statement.
 */
export async function insertMessage(
  db: Database,
  row: {
    id?: string;
    conversationId: string;
    role: 'user' | 'assistant';
    kind: MessageKind;
    content: string;
    documentReferences?: StoredDocumentReference[];
    now: Date;
    rename?: string;
  },
): Promise<string> {
  const id = row.id ?? crypto.randomUUID();
  const values = {
    id,
    conversationId: row.conversationId,
    role: row.role,
    kind: row.kind,
    content: row.content,
    documentReferences: row.documentReferences ?? [],
    createdAt: row.now,
  };
  if (!row.rename) {
    await db.insert(conversationMessages).values(values);
    return id;
  }
  await db.execute(sql`
    with m as (
      insert into ${conversationMessages} (id, conversation_id, role, kind, content, document_references, created_at)
      values (${id}, ${row.conversationId}, ${row.role}, ${row.kind}, ${row.content}, ${JSON.stringify(values.documentReferences)}::jsonb, ${row.now.toISOString()}::timestamptz)
      returning conversation_id
    )
    update ${conversations} set title = ${row.rename} where ${conversations.id} = (select conversation_id from m)`);
  return id;
}

export async function renameOwned(db: Database, id: string, viewerId: string, title: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(conversations)
    .set({ title, updatedAt: now })
    .where(ownedAndVisible(db, id, viewerId))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

export async function deleteOwned(db: Database, id: string, viewerId: string): Promise<boolean> {
  const rows = await db.delete(conversations).where(ownedAndVisible(db, id, viewerId)).returning({ id: conversations.id });
  return rows.length > 0;
}

function conversationColumns() {
  return {
    id: conversations.id,
    userId: conversations.userId,
    personalityId: conversations.personalityId,
    title: conversations.title,
    createdAt: conversations.createdAt,
    updatedAt: lastActivity,
  };
}
