// The only drizzle importer for saved conversations. Every statement names the asker: a
// conversation is reachable only by the person who owns it, and only while its personality is
// still visible to them (an unshared recipient loses access to their conversations with it).
import crypto from 'node:crypto';
import { and, asc, desc, eq, exists, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { conversationMessages, conversations, type StoredDocumentReference } from '../../db/schema/conversations';
import { personalities } from '../../db/schema/personalities';
import { visibleTo, type PersonalityRow } from '../personalities/personalities.repository';
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

/** A page of the viewer's conversations with a personality, most recently active first (then by id, so pages never overlap). */
export async function listOwned(
  db: Database,
  viewerId: string,
  personalityId: string,
  page: { limit: number; offset: number },
): Promise<ConversationSummaryRow[]> {
  return db
    .select({ ...conversationColumns(), messageCount })
    .from(conversations)
    .where(and(eq(conversations.userId, viewerId), eq(conversations.personalityId, personalityId), personalityVisible(db, viewerId)))
    .orderBy(desc(lastActivity), desc(conversations.id))
    .limit(page.limit)
    .offset(page.offset);
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

/**
 * What the chat's first token needs from the database, in one statement: the personality when the
 * asker may see it (the access check, the same rule as findVisible) and, when `conversationId` is
 * given, that conversation's title and latest `limit` messages, oldest first, only when it is the
 * asker's own with this personality (history: null otherwise, which the caller answers as
 * "conversation not found"); with `columns`, the caller's own scalar subqueries (retrieval's
 * first read), returned in `extra`. With `hit` (a rate limit's upsert, countHitsSql), the hit is
 * counted in the same statement and its window's count returned in `hits`, whether or not the
 * personality is visible (a refused limit answers before a missing personality). `personality`
 * is null when it is not visible.
 */
export async function findVisibleWithHistory(
  db: Database,
  q: { personalityId: string; viewerId: string | null; conversationId: string | null; limit: number; columns?: Record<string, SQL>; hit?: SQL },
): Promise<{ personality: PersonalityRow | null; history: SavedHistory | null; extra: Record<string, unknown>; hits: number | null }> {
  // Qualified by hand: inside the subquery an unqualified "id" would name the conversation's.
  const history =
    q.conversationId && q.viewerId
      ? sql<SavedHistory | string | null>`(
          select json_build_object('title', c.title, 'messages', coalesce((
            select json_agg(json_build_object('id', x.id, 'role', x.role, 'kind', x.kind, 'content', x.content) order by x.created_at, x.id)
            from (
              select m.role, m.kind, m.content, m.created_at, m.id from ${conversationMessages} m
              where m.conversation_id = c.id order by m.created_at desc, m.id desc limit ${q.limit}
            ) x), '[]'::json))
          from ${conversations} c
          where c.id = ${q.conversationId} and c.user_id = ${q.viewerId} and c.personality_id = "personalities"."id")`
      : sql<null>`null`;
  const visible = and(eq(personalities.id, q.personalityId), visibleTo(q.viewerId))!;
  const columns = { personality: personalities, history, extra: q.columns ?? {} };
  let row: { personality: PersonalityRow | null; history: SavedHistory | string | null; extra: unknown; hits?: number } | undefined;
  if (q.hit) {
    // The counter's one row drives the statement, so the count comes back even when no
    // personality matches (a data-modifying WITH runs to completion either way).
    const counted = db.$with('counted', { count: sql<number>`count`.mapWith(Number).as('count') }).as(q.hit);
    const rows = await db
      .with(counted)
      .select({ ...columns, hits: counted.count })
      .from(counted)
      .leftJoin(personalities, visible)
      .limit(1);
    row = rows[0];
  } else {
    row = (await db.select(columns).from(personalities).where(visible).limit(1))[0];
  }
  if (!row) return { personality: null, history: null, extra: {}, hits: null };
  // node-postgres and PGlite both parse json; a driver that hands back text is read here too.
  const saved = typeof row.history === 'string' ? (JSON.parse(row.history) as SavedHistory) : row.history;
  return { personality: row.personality, history: saved, extra: row.extra as Record<string, unknown>, hits: row.hits ?? null };
}

export interface SavedHistory {
  title: string;
  messages: Pick<MessageRow, 'id' | 'role' | 'kind' | 'content'>[];
}

/**
 * The person's question in one statement, beside the model call (issue 19): a new conversation's
 * row and greeting (when `conversation` is given), the message (retitling a placeholder title with
 * `rename`), and the owner's question log (`question`, questions.repository.ts). One round trip,
 * and all or nothing: the caller retries without the question log (it is not critical), and
 * reports a failure to save the message in the stream.
 */
export async function saveQuestion(
  db: Database,
  q: {
    conversation?: { userId: string; personalityId: string; title: string; greeting: string; now: Date };
    message: { id: string; conversationId: string; content: string; now: Date; rename?: string };
    /** The question log's insert; undefined saves the message without it. */
    question?: SQL;
  },
): Promise<void> {
  const { conversation: c, message: m } = q;
  const at = m.now.toISOString();
  const parts: SQL[] = [];
  if (c) {
    const createdAt = c.now.toISOString();
    parts.push(sql`c as (
      insert into ${conversations} (id, user_id, personality_id, title, created_at, updated_at)
      values (${m.conversationId}, ${c.userId}, ${c.personalityId}, ${c.title}, ${createdAt}::timestamptz, ${createdAt}::timestamptz)
      returning id)`);
    parts.push(sql`g as (
      insert into ${conversationMessages} (conversation_id, role, kind, content, created_at)
      select c.id, 'assistant', 'greeting', ${c.greeting}, ${createdAt}::timestamptz from c)`);
    // From c, so the message cannot exist without its conversation.
    parts.push(sql`m as (
      insert into ${conversationMessages} (id, conversation_id, role, kind, content, created_at)
      select ${m.id}, c.id, 'user', 'message', ${m.content}, ${at}::timestamptz from c
      returning conversation_id)`);
  } else {
    parts.push(sql`m as (
      insert into ${conversationMessages} (id, conversation_id, role, kind, content, created_at)
      values (${m.id}, ${m.conversationId}, 'user', 'message', ${m.content}, ${at}::timestamptz)
      returning conversation_id)`);
    if (m.rename) parts.push(sql`r as (update ${conversations} set title = ${m.rename} where ${conversations.id} = (select conversation_id from m))`);
  }
  // A data-modifying WITH runs whether or not the main query reads it.
  if (q.question) parts.push(sql`q as (${q.question})`);
  await db.execute(sql`with ${sql.join(parts, sql`, `)} select 1`);
}

/**
 * Open mic: removes what turns the person withdrew left saved (their question, and anything saved
 * after it before `before`: the start of a reply), in the asker's conversations with this
 * personality only, then a conversation such a turn had started and nothing else of the person's
 * is in. Returns how many messages were removed.
 */
export async function removeWithdrawnTurns(
  db: Database,
  q: { userId: string; personalityId: string; messageIds: string[]; before: Date },
): Promise<number> {
  if (q.messageIds.length === 0) return 0;
  const ids = sql.join(
    q.messageIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    with w as (
      select m.conversation_id, min(m.created_at) as from_at
      from ${conversationMessages} m join ${conversations} c on c.id = m.conversation_id
      where m.id in (${ids}) and m.role = 'user' and c.user_id = ${q.userId} and c.personality_id = ${q.personalityId}
      group by m.conversation_id)
    delete from ${conversationMessages} x using w
    where x.conversation_id = w.conversation_id and x.created_at >= w.from_at and x.created_at < ${q.before.toISOString()}::timestamptz
    returning x.conversation_id`);
  const removed = (result as unknown as { rows: { conversation_id: string }[] }).rows;
  const touched = [...new Set(removed.map((r) => r.conversation_id))];
  if (touched.length > 0) {
    await db.execute(sql`
      delete from ${conversations} c
      where c.id in (${sql.join(
        touched.map((id) => sql`${id}`),
        sql`, `,
      )}) and c.user_id = ${q.userId}
        and not exists (select 1 from ${conversationMessages} m where m.conversation_id = c.id and m.role = 'user')`);
  }
  return removed.length;
}

export async function listMessages(db: Database, conversationId: string): Promise<MessageRow[]> {
  return db
    .select()
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id));
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

/**
 * Adds a reply only if the person's message `afterMessageId` is saved, checked in the same
 * statement, so it can be sent before that save is confirmed (chat-run.ts). False when the
 * message was not there (not yet committed, or not saved at all): nothing was added.
 */
export async function insertReplyAfter(
  db: Database,
  row: { id: string; conversationId: string; afterMessageId: string; kind: MessageKind; content: string; documentReferences: StoredDocumentReference[]; now: Date },
): Promise<boolean> {
  const result = await db.execute(sql`
    insert into ${conversationMessages} (id, conversation_id, role, kind, content, document_references, created_at)
    select ${row.id}, ${row.conversationId}, 'assistant', ${row.kind}, ${row.content}, ${JSON.stringify(row.documentReferences)}::jsonb, ${row.now.toISOString()}::timestamptz
    where exists (select 1 from ${conversationMessages} q where q.id = ${row.afterMessageId})
    returning id`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
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

/** Whether the personality still exists (a save that failed on a missing row: was it deleted?). */
export async function personalityExists(db: Database, personalityId: string): Promise<boolean> {
  const rows = await db.select({ id: personalities.id }).from(personalities).where(eq(personalities.id, personalityId)).limit(1);
  return rows.length > 0;
}
