// The order of work in one streamed exchange (issue 19): the person's message is saved beside the
// model call, not after its first word; it is durable before `done`; and a failure to save is
// reported in the stream and logged as an error, never silent.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { conversationMessages } from '../../db/schema/conversations';
import type { Database } from '../../db/client';
import { createChatResponder, type ChatResponder } from '../../ai/providers';
import type { Logger } from '../../lib/logger';
import { systemClock } from '../../lib/clock';
import { messages } from '../../../shared/messages';
import type { ChatStreamEvent } from '../../../shared/chat-stream';
import type { PersonalityRow } from '../personalities/personalities.repository';
import { loadVisiblePersonality } from '../personalities/personality-access';
import { createChatRun, type Exchange } from './chat-run';
import { createContextCache } from './context-cache';
import { createPersonality } from './conversations.test-support';

let server: TestServer;
let personality: PersonalityRow;
let viewer: { id: string; email: string; name: string };

beforeAll(async () => {
  server = await startTestServer();
  const owner = await server.user();
  viewer = { id: owner.id, email: owner.email, name: 'Owner' };
  const id = await createPersonality(owner, 'Ada Lovelace');
  personality = await loadVisiblePersonality(server.database.db, id, owner.id);
});
afterAll(async () => {
  await server?.close();
});

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, debug() {}, info() {}, warn() {}, error: (msg) => void errors.push(msg) };
}

function exchange(message: string): Exchange {
  return {
    personality,
    cacheHit: true,
    greeting: 'Hello!',
    conversationId: null,
    message,
    messages: [
      { role: 'system', content: 'You are Ada.' },
      { role: 'user', content: message },
    ],
    documents: [],
    passages: [],
    documentsProcessing: false,
  };
}

async function userMessagesIn(db: Database, conversationId: string): Promise<number> {
  const rows = await db
    .select({ id: conversationMessages.id })
    .from(conversationMessages)
    .where(and(eq(conversationMessages.conversationId, conversationId), eq(conversationMessages.role, 'user')));
  return rows.length;
}

async function collect(events: AsyncGenerator<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('one exchange', () => {
  it('saves the person’s message while the model is working, before its first word', async () => {
    const db = server.database.db;
    let conversationId = '';
    // A model that, before it says anything, waits (up to 3 s) to see the question saved.
    const responder: ChatResponder = {
      mode: 'model',
      label: 'test',
      async *streamReply() {
        const until = Date.now() + 3000;
        while (Date.now() < until && (await userMessagesIn(db, conversationId)) === 0) await new Promise((r) => setTimeout(r, 10));
        yield (await userMessagesIn(db, conversationId)) === 1 ? 'saved-before-first-word' : 'not-saved-yet';
      },
    };
    const logger = recordingLogger();
    const run = createChatRun(
      { db, clock: systemClock, logger, responder, cache: createContextCache({ clock: systemClock }), questions: { log: async () => {} } as never },
      viewer,
      exchange('What did you write about the engine?'),
      performance.now(),
    );
    conversationId = run.conversationId!;
    const events = await collect(run.events(new AbortController().signal));
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).toBe('saved-before-first-word');
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', content: 'saved-before-first-word' });
    expect((done as { saveFailed?: string }).saveFailed).toBeUndefined();
    expect(logger.errors).toEqual([]);
  });

  it('asks the model before the first event is written, so the response headers go out while it works', async () => {
    let asked = false;
    const responder: ChatResponder = {
      mode: 'model',
      label: 'test',
      async *streamReply() {
        asked = true;
        yield 'Hello.';
      },
    };
    const run = createChatRun(
      { db: server.database.db, clock: systemClock, logger: recordingLogger(), responder, cache: createContextCache({ clock: systemClock }), questions: { log: async () => {} } as never },
      viewer,
      exchange('Are you there?'),
      performance.now(),
    );
    const events = run.events(new AbortController().signal);
    const first = await events.next();
    expect(first.value).toMatchObject({ type: 'start', conversationId: run.conversationId });
    expect(asked).toBe(true);
    const rest = await collect(events);
    expect(rest.map((e) => e.type)).toEqual(['delta', 'done']);
  });

  it('has the question and the reply saved when it reports done', async () => {
    const db = server.database.db;
    const responder: ChatResponder = {
      mode: 'model',
      label: 'test',
      async *streamReply() {
        yield 'Numbers ';
        yield 'can weave.';
      },
    };
    const run = createChatRun(
      { db, clock: systemClock, logger: recordingLogger(), responder, cache: createContextCache({ clock: systemClock }), questions: { log: async () => {} } as never },
      viewer,
      exchange('Tell me about patterns'),
      performance.now(),
    );
    const events = run.events(new AbortController().signal);
    for (;;) {
      // Read up to `done` and check the database before the stream is closed.
      const { value, done } = await events.next();
      if (done) throw new Error('the stream ended without done');
      if (value.type !== 'done') continue;
      const saved = await db
        .select({ role: conversationMessages.role, kind: conversationMessages.kind, content: conversationMessages.content, id: conversationMessages.id })
        .from(conversationMessages)
        .where(eq(conversationMessages.conversationId, run.conversationId!));
      expect(saved.find((m) => m.role === 'user')?.content).toBe('Tell me about patterns');
      expect(saved.find((m) => m.id === value.messageId)).toMatchObject({ role: 'assistant', kind: 'message', content: 'Numbers can weave.' });
      break;
    }
    await events.return(undefined);
  });

  it('reports a failure to save in the stream and logs it as an error', async () => {
    const failing = new Proxy(server.database.db, {
      get(target, key, receiver) {
        if (key === 'insert' || key === 'execute') {
          return () => {
            throw new Error('disk full');
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const responder: ChatResponder = {
      mode: 'model',
      label: 'test',
      async *streamReply() {
        yield 'Still here.';
      },
    };
    const logger = recordingLogger();
    const run = createChatRun(
      { db: failing, clock: systemClock, logger, responder, cache: createContextCache({ clock: systemClock }), questions: { log: async () => {} } as never },
      viewer,
      exchange('Will this be kept?'),
      performance.now(),
    );
    const events = await collect(run.events(new AbortController().signal));
    // The reply still reaches the person, and so does the news that it was not kept.
    expect(events.at(-1)).toEqual({ type: 'done', messageId: null, content: 'Still here.', documentReferences: [], saveFailed: messages.chat.notSaved });
    expect(logger.errors.some((m) => m.includes('could not save a chat message'))).toBe(true);
  });

  it('cites no document when the offline responder declines, though passages were found', async () => {
    const responder = createChatResponder(server.config);
    expect(responder.mode).toBe('offline');
    const reference = { fileName: 'engine-notes.txt (chunk 1)', similarity: 0.42, documentId: crypto.randomUUID(), chunkIndex: 0 };
    const ex: Exchange = {
      ...exchange('What is your favourite football team?'),
      documents: [reference],
      passages: [{ fileName: 'engine-notes.txt', chunkIndex: 0, content: 'The Analytical Engine would weave algebraic patterns as the Jacquard loom weaves flowers.', similarity: 0.42 }],
    };
    const run = createChatRun({ db: server.database.db, clock: systemClock, logger: recordingLogger(), responder, cache: createContextCache({ clock: systemClock }), questions: { log: async () => {} } as never }, viewer, ex, performance.now());
    const events = await collect(run.events(new AbortController().signal));
    const done = events.find((e) => e.type === 'done') as Extract<ChatStreamEvent, { type: 'done' }>;
    expect(done.content).toContain('my documents say nothing about that');
    expect(done.documentReferences).toEqual([]);
    const saved = await server.database.db.select().from(conversationMessages).where(eq(conversationMessages.id, done.messageId!));
    expect(saved[0]!.documentReferences).toEqual([]);
  });
});
