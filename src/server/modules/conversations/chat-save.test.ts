// What one exchange writes, and in how many round trips (issue 19): the person's message, a new
// conversation's row and greeting and the owner's question log go in one statement beside the
// model call, all or nothing; a failure is reported in the stream. And the read before the model:
// the access check and the saved history in one statement, the history only from the asker's own
// conversation with this personality.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { conversationMessages, conversations } from '../../db/schema/conversations';
import { personalityQuestions } from '../../db/schema/questions';
import type { Database } from '../../db/client';
import type { ChatResponder } from '../../ai/providers';
import type { Logger } from '../../lib/logger';
import { systemClock } from '../../lib/clock';
import { messages } from '../../../shared/messages';
import type { ChatStreamEvent } from '../../../shared/chat-stream';
import type { PersonalityRow } from '../personalities/personalities.repository';
import { loadVisiblePersonality } from '../personalities/personality-access';
import { createChatRun, type Exchange } from './chat-run';
import { createContextCache } from './context-cache';
import { createPersonality } from './conversations.test-support';
import { NEW_CONVERSATION_TITLE } from './conversations.service';
import * as repo from './conversations.repository';
import { countHitsSql } from '../rate-limits/rate-limits.repository';

let server: TestServer;
let db: Database;
let personality: PersonalityRow;
let viewer: { id: string; email: string; name: string };
let stranger: { id: string };
let ownerClient: Awaited<ReturnType<TestServer['user']>>;

beforeAll(async () => {
  server = await startTestServer();
  db = server.database.db;
  const owner = (ownerClient = await server.user());
  viewer = { id: owner.id, email: owner.email, name: 'Owner' };
  stranger = { id: (await server.user()).id };
  personality = await loadVisiblePersonality(db, await createPersonality(owner, 'Grace Hopper'), owner.id);
});
afterAll(async () => {
  await server?.close();
});

const quietLogger = (): Logger & { errors: string[]; warnings: string[] } => {
  const errors: string[] = [];
  const warnings: string[] = [];
  return { errors, warnings, debug() {}, info() {}, warn: (msg) => void warnings.push(msg), error: (msg) => void errors.push(msg) };
};

/** Statements issued while the model worked: the question's save, measured once it is kept. */
let writesBeforeReply = -1;
let counter: (() => number) | undefined;
const replying: ChatResponder = {
  mode: 'model',
  label: 'test',
  async *streamReply({ question }) {
    const until = Date.now() + 3000;
    while (counter && Date.now() < until && (await db.select().from(conversationMessages).where(eq(conversationMessages.content, question))).length === 0) {
      await new Promise((r) => setTimeout(r, 5));
    }
    writesBeforeReply = counter?.() ?? -1;
    yield 'Ships are safe in harbour.';
  },
};

/** Counts the statements a database handle is asked to run (each builder call starts one). */
function counting(target: Database): { db: Database; writes: () => number } {
  let writes = 0;
  counter = () => writes;
  const db = new Proxy(target, {
    get(t, key, receiver) {
      if (key === 'insert' || key === 'execute' || key === 'update') writes++;
      return Reflect.get(t, key, receiver);
    },
  });
  return { db, writes: () => writes };
}

function run(database: Database, message: string, conversation: { id: string; title: string } | null, logger = quietLogger()) {
  if (database === db) counter = undefined;
  const ex: Exchange = {
    personality,
    cacheHit: true,
    greeting: 'Hello, sailor.',
    conversationId: conversation?.id ?? null,
    conversationTitle: conversation?.title,
    message,
    messages: [{ role: 'user', content: message }],
    documents: [],
    passages: [],
    documentsProcessing: false,
  };
  const deps = { db: database, clock: systemClock, logger, responder: replying, cache: createContextCache({ clock: systemClock }), questions: { log: async () => {} } as never };
  return createChatRun(deps, viewer, ex, performance.now());
}

async function collect(events: AsyncGenerator<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const messagesOf = (conversationId: string) =>
  db
    .select({ role: conversationMessages.role, kind: conversationMessages.kind, content: conversationMessages.content })
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(asc(conversationMessages.createdAt));
const questionsAsked = async (text: string) => (await db.select().from(personalityQuestions).where(eq(personalityQuestions.questionText, text))).length;

describe('saving an exchange', () => {
  it('a new conversation: its row, greeting, the message and the question log in one statement, then the reply', async () => {
    const counted = counting(db);
    const chat = run(counted.db, 'What is a bug?', null);
    const events = await collect(chat.events(new AbortController().signal));
    expect(events.at(-1)).toMatchObject({ type: 'done', content: 'Ships are safe in harbour.' });
    expect((events.at(-1) as { saveFailed?: string }).saveFailed).toBeUndefined();
    // The question's save was one statement; the reply's came after (a second one, rarely a third:
    // chat-run.ts sends it again when it ran before the question's save was visible).
    expect(writesBeforeReply).toBe(1);
    expect(counted.writes()).toBeGreaterThanOrEqual(2);
    const [row] = await db.select().from(conversations).where(eq(conversations.id, chat.conversationId!));
    expect(row).toMatchObject({ userId: viewer.id, personalityId: personality.id, title: 'What is a bug?' });
    expect(await messagesOf(chat.conversationId!)).toEqual([
      { role: 'assistant', kind: 'greeting', content: 'Hello, sailor.' },
      { role: 'user', kind: 'message', content: 'What is a bug?' },
      { role: 'assistant', kind: 'message', content: 'Ships are safe in harbour.' },
    ]);
    expect(await questionsAsked('What is a bug?')).toBe(1);
  });

  it('an existing conversation: the message, its placeholder title replaced, and the question log', async () => {
    const created = await repo.insertConversation(db, { userId: viewer.id, personalityId: personality.id, title: NEW_CONVERSATION_TITLE, greeting: 'Hi.', now: new Date(Date.now() - 1000) });
    const counted = counting(db);
    const events = await collect(run(counted.db, 'Who wrote COBOL?', { id: created.id, title: NEW_CONVERSATION_TITLE }).events(new AbortController().signal));
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    expect(writesBeforeReply).toBe(1);
    const [row] = await db.select().from(conversations).where(eq(conversations.id, created.id));
    expect(row!.title).toBe('Who wrote COBOL?');
    expect((await messagesOf(created.id)).map((m) => m.kind)).toEqual(['greeting', 'message', 'message']);
    expect(await questionsAsked('Who wrote COBOL?')).toBe(1);
  });

  it('a reply whose statement runs before the question is saved is added once, after it', async () => {
    // The question's statement is held back 100 ms (as a pooled connection might run it late): the
    // reply's first attempt finds no message and adds nothing; it is sent again once the message is.
    let held = false;
    const late = new Proxy(db, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver);
        if (key !== 'execute' || held) return value;
        held = true;
        return (query: unknown) => new Promise((r) => setTimeout(r, 100)).then(() => t.execute(query as never));
      },
    });
    counter = undefined;
    const chat = run(late as Database, 'Late question?', null);
    const events = await collect(chat.events(new AbortController().signal));
    const done = events.at(-1) as { type: string; messageId: string; saveFailed?: string };
    expect(done).toMatchObject({ type: 'done', content: 'Ships are safe in harbour.' });
    expect(done.saveFailed).toBeUndefined();
    const replies = await db.select().from(conversationMessages).where(eq(conversationMessages.content, 'Ships are safe in harbour.'));
    const mine = replies.filter((m) => m.conversationId === chat.conversationId);
    expect(mine.map((m) => m.id)).toEqual([done.messageId]);
    expect((await messagesOf(chat.conversationId!)).map((m) => m.content)).toEqual(['Hello, sailor.', 'Late question?', 'Ships are safe in harbour.']);
  });

  it('a save the database refuses is reported in the stream, and nothing of it is kept', async () => {
    // The conversation is gone by the time the message is saved: the statement fails as a whole.
    const created = await repo.insertConversation(db, { userId: viewer.id, personalityId: personality.id, title: 'Gone', greeting: 'Hi.', now: new Date() });
    await db.delete(conversations).where(eq(conversations.id, created.id));
    const logger = quietLogger();
    const events = await collect(run(db, 'Is anyone there?', { id: created.id, title: 'Gone' }, logger).events(new AbortController().signal));
    expect(events.at(-1)).toEqual({ type: 'done', messageId: null, content: 'Ships are safe in harbour.', documentReferences: [], saveFailed: messages.chat.notSaved });
    expect(logger.errors.some((m) => m.includes('could not save a chat message'))).toBe(true);
    expect(await questionsAsked('Is anyone there?')).toBe(0);
  });
});

describe('the question log is not critical', () => {
  it('when it cannot be written, the message is still saved (without it) and the failure is logged', async () => {
    await db.execute(sql`alter table personality_questions rename to personality_questions_away`);
    try {
      const logger = quietLogger();
      const chat = run(db, 'Still saved?', null, logger);
      const events = await collect(chat.events(new AbortController().signal));
      expect(events.at(-1)).toMatchObject({ type: 'done', content: 'Ships are safe in harbour.' });
      expect((events.at(-1) as { saveFailed?: string }).saveFailed).toBeUndefined();
      expect((await messagesOf(chat.conversationId!)).map((m) => m.content)).toEqual(['Hello, sailor.', 'Still saved?', 'Ships are safe in harbour.']);
      expect(logger.warnings.some((m) => m.includes('could not log a question'))).toBe(true);
      expect(logger.errors).toEqual([]);
    } finally {
      await db.execute(sql`alter table personality_questions_away rename to personality_questions`);
    }
  });
});

describe('the access check with the saved history', () => {
  it('reads history only from the asker’s own conversation with this personality', async () => {
    const mine = await repo.insertConversation(db, { userId: viewer.id, personalityId: personality.id, title: 'Mine', greeting: 'Hello.', now: new Date() });
    await repo.insertMessage(db, { conversationId: mine.id, role: 'user', kind: 'message', content: 'First question', now: new Date(Date.now() + 5) });
    const ask = (viewerId: string | null, personalityId: string, conversationId: string | null) =>
      repo.findVisibleWithHistory(db, { personalityId, viewerId, conversationId, limit: 10 });

    const own = await ask(viewer.id, personality.id, mine.id);
    expect(own.personality?.id).toBe(personality.id);
    expect(own?.history).toEqual({
      title: 'Mine',
      messages: [
        { id: expect.any(String), role: 'assistant', kind: 'greeting', content: 'Hello.' },
        { id: expect.any(String), role: 'user', kind: 'message', content: 'First question' },
      ],
    });
    // No conversation asked for: the access check alone.
    expect((await ask(viewer.id, personality.id, null))?.history).toBeNull();
    // Someone else's conversation id: no history (the caller answers 404), whoever asks.
    const strangers = await repo.insertConversation(db, { userId: stranger.id, personalityId: personality.id, title: 'Theirs', greeting: 'Hey.', now: new Date() });
    expect((await ask(viewer.id, personality.id, strangers.id))?.history).toBeNull();
    // A private personality the stranger may not see: nothing at all, not even their own conversation's.
    expect(await ask(stranger.id, personality.id, strangers.id)).toMatchObject({ personality: null, history: null, hits: null });
    expect(await ask(null, personality.id, null)).toMatchObject({ personality: null, history: null, hits: null });
    // The asker's conversation, named through another personality: no history.
    const otherId = await createPersonality(ownerClient, 'Other');
    const other = await ask(viewer.id, otherId, mine.id);
    expect(other.personality?.id).toBe(otherId);
    expect(other?.history).toBeNull();
  });

  it('keeps only the latest `limit` messages, oldest first', async () => {
    const conv = await repo.insertConversation(db, { userId: viewer.id, personalityId: personality.id, title: 'Long', greeting: 'Hello.', now: new Date(Date.now() - 10_000) });
    for (let i = 1; i <= 5; i++) await repo.insertMessage(db, { conversationId: conv.id, role: 'user', kind: 'message', content: `m${i}`, now: new Date(Date.now() - 10_000 + i) });
    const found = await repo.findVisibleWithHistory(db, { personalityId: personality.id, viewerId: viewer.id, conversationId: conv.id, limit: 3 });
    expect(found?.history?.messages.map((m) => m.content)).toEqual(['m3', 'm4', 'm5']);
  });

  it('counts the chat limit\'s hit in the same statement, and returns its count whether or not the personality is visible', async () => {
    const hit = (subject: string) => countHitsSql([{ endpoint: 'test/chat', subject, windowStart: new Date(0), userId: null, ipAddress: null }]);
    let statements = 0;
    const counted = new Proxy(db, {
      get(t, key, receiver) {
        if (key === 'execute' || key === 'insert' || key === 'select' || key === 'with') statements++;
        return Reflect.get(t, key, receiver);
      },
    });
    const visible = await repo.findVisibleWithHistory(counted, { personalityId: personality.id, viewerId: viewer.id, conversationId: null, limit: 1, hit: hit('a') });
    expect(visible.personality?.id).toBe(personality.id);
    expect(visible.hits).toBe(1);
    expect(statements).toBe(1);
    // The stranger may not see it; a missing id matches nothing: the hit is still counted and told.
    expect(await repo.findVisibleWithHistory(db, { personalityId: personality.id, viewerId: stranger.id, conversationId: null, limit: 1, hit: hit('a') })).toMatchObject({ personality: null, hits: 2 });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await repo.findVisibleWithHistory(db, { personalityId: missing, viewerId: null, conversationId: null, limit: 1, hit: hit('a') })).toMatchObject({ personality: null, hits: 3 });
    // Without a hit nothing is counted; another subject has its own window.
    expect((await repo.findVisibleWithHistory(db, { personalityId: missing, viewerId: null, conversationId: null, limit: 1 })).hits).toBeNull();
    expect((await repo.findVisibleWithHistory(db, { personalityId: missing, viewerId: null, conversationId: null, limit: 1, hit: hit('b') })).hits).toBe(1);
  });
});
