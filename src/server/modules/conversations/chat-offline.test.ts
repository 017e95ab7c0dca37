// Text chat with the embedded offline responder (no model configured): grounded answers with
// references, plain "nothing on that", saved conversations, anonymous history, validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { chat, createPersonality, eventOf, makePublic, seedDocument } from './conversations.test-support';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const ENGINE_NOTES = [
  'I first met Charles Babbage in 1833, at one of his famous evening parties in London.',
  'The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves. ' +
    'It could act upon things other than numbers, such as musical notes.',
  'My mother insisted on a rigorous education in mathematics and logic, to keep me from my father\'s poetic temperament.',
];

describe('chat with the offline responder', () => {
  it('answers a signed-in owner from the best passage, word by word, with "{file} (chunk N)" references, and saves the exchange', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace', { description: 'Mathematician and writer' });
    const docId = await seedDocument(server.database.db, { personalityId: id, fileName: 'engine-notes.txt', chunks: ENGINE_NOTES });

    const res = await chat(owner, id, { message: 'What did the Analytical Engine weave, like the Jacquard loom?' });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/event-stream/);
    expect(res.events[0]?.type).toBe('start');
    expect(res.events.at(-1)?.type).toBe('done');
    const deltas = res.events.filter((e) => e.type === 'delta');
    expect(deltas.length).toBeGreaterThan(5); // streamed in pieces, not one block
    expect(res.text).toContain('weaves algebraic patterns');
    expect(res.text).toContain('[DO_NOT_READ](from engine-notes.txt (chunk 2))[/DO_NOT_READ]');

    const start = eventOf(res, 'start')!;
    expect(start.mode).toBe('offline');
    expect(start.documentsProcessing).toBe(false);
    expect(start.documentReferences[0]).toMatchObject({ fileName: 'engine-notes.txt (chunk 2)', documentId: docId, chunkIndex: 1 });
    for (const ref of start.documentReferences) {
      expect(ref.similarity).toBeGreaterThan(0);
      expect(ref.similarity).toBeLessThanOrEqual(1);
    }
    const done = eventOf(res, 'done')!;
    expect(done.content).toBe(res.text);

    // Saved on the server: greeting, question, reply (with its references).
    expect(start.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    const saved = await owner.get(`/api/conversations/${start.conversationId}`);
    expect(saved.status).toBe(200);
    const msgs = saved.body.conversation.messages;
    expect(msgs.map((m: { sender: string; kind: string }) => `${m.sender}:${m.kind}`)).toEqual([
      'personality:greeting',
      'user:message',
      'personality:message',
    ]);
    expect(msgs[2].content).toBe(res.text);
    expect(msgs[2].documentReferences[0].fileName).toBe('engine-notes.txt (chunk 2)');
    expect(saved.body.conversation.title).toBe('What did the Analytical Engine weave, like the Jacquard loo…');
  });

  it('says plainly when its documents hold nothing on the question', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace');
    await seedDocument(server.database.db, { personalityId: id, fileName: 'engine-notes.txt', chunks: ENGINE_NOTES });
    const res = await chat(owner, id, { message: 'What is your favourite football team?' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('my documents say nothing about that');
    expect(res.text).not.toContain('>');
    expect(eventOf(res, 'start')!.documentReferences).toEqual([]);
  });

  it('quotes a 2-3 sentence window of prose from the best passage: never its heading, date line, greeting or sign-off', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Marta');
    const letter =
      '# Letters home\n\nTobermory, 3 October 1995\nDear Anna,\n\nThe weather turned cold. Your father has finally finished the boat. ' +
      'It is a clinker-built dinghy of larch, eleven feet long. He painted her blue and named her Solveig.\n\nWith love,\nMum';
    await seedDocument(server.database.db, { personalityId: id, fileName: 'letters.txt', chunks: [letter] });
    const res = await chat(owner, id, { message: 'What colour did your husband paint the dinghy?' });
    expect(res.status).toBe(200);
    const quote = res.text.split('\n').filter((l) => l.startsWith('> '));
    expect(quote).toHaveLength(1);
    const quoted = quote[0]!.slice(2).split(/(?<=\.)\s+/);
    expect(quoted.length).toBeGreaterThanOrEqual(2);
    expect(quoted.length).toBeLessThanOrEqual(3);
    expect(quote[0]).toContain('He painted her blue and named her Solveig.');
    for (const never of ['# Letters home', 'Tobermory, 3 October 1995', 'Dear Anna,', 'With love,', 'Mum']) expect(res.text).not.toContain(never);
    expect(res.text).toContain('(from letters.txt (chunk 1))');
  });

  it('lets an anonymous visitor chat with a public personality, keeping nothing on the server', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace');
    await seedDocument(server.database.db, { personalityId: id, fileName: 'engine-notes.txt', chunks: ENGINE_NOTES });
    const visitor = server.client();
    expect((await chat(visitor, id, { message: 'Tell me about Babbage' })).status).toBe(404);

    await makePublic(server.database.db, id);
    const res = await chat(visitor, id, {
      message: 'When did you meet Charles Babbage?',
      conversationHistory: [
        { role: 'assistant', content: "Hello! I'm Ada Lovelace. What would you like to talk about?", isGreeting: true },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('1833');
    expect(eventOf(res, 'start')!.conversationId).toBeNull();
    expect(eventOf(res, 'done')!.messageId).toBeNull();
    // Anonymous visitors have no saved conversations to list.
    expect((await visitor.get(`/api/personalities/${id}/conversations`)).status).toBe(401);
  });

  it('reads a question typed with combining accents (NFD, as macOS and Vietnamese keyboards send) like the stored document (NFC)', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Chef');
    await seedDocument(server.database.db, { personalityId: id, fileName: 'desserts.txt', chunks: ['My crème brûlée was famous in Lyon. I burnt the sugar with a hot iron.'] });
    const question = 'Tell me about your crème brûlée'.normalize('NFD');
    expect(question).not.toBe(question.normalize('NFC'));
    const res = await chat(owner, id, { message: question });
    expect(res.status).toBe(200);
    expect(res.text).toContain('My crème brûlée was famous in Lyon.');
    // Saved as typed, in its composed form.
    const saved = await owner.get(`/api/conversations/${eventOf(res, 'start')!.conversationId}`);
    expect(saved.body.conversation.messages[1].content).toBe('Tell me about your crème brûlée');
  });

  it('refuses an empty or blank message, for sending and for previewing', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace');
    // Invisible characters alone are blank too (String.trim() keeps them): nothing to send or preview.
    for (const message of ['', '   \n\t ', '\u200B', '\u200D\u200F', ' \uFEFF\u0301 ']) {
      const sent = await chat(owner, id, { message });
      expect(sent.status).toBe(400);
      expect(sent.body.error.message).toBe('Please enter a message');
      const previewed = await owner.post(`/api/personalities/${id}/chat/preview`, { message });
      expect(previewed.status).toBe(400);
      expect(previewed.body.error.message).toBe('Please enter a message');
    }
    expect((await chat(owner, id, {})).status).toBe(400);
    expect((await owner.get(`/api/personalities/${id}/conversations`)).body.conversations).toEqual([]);
  });

  it('says that documents are still being processed when some are not ready', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace');
    await seedDocument(server.database.db, { personalityId: id, fileName: 'engine-notes.txt', chunks: ENGINE_NOTES });
    await seedDocument(server.database.db, { personalityId: id, fileName: 'new-upload.txt', chunks: [], processingState: 'processing' });
    const res = await chat(owner, id, { message: 'What about the Analytical Engine?' });
    expect(eventOf(res, 'start')!.documentsProcessing).toBe(true);
    expect(res.text.startsWith('Some of my documents are still being processed')).toBe(true);
    // ...and still answers from the ready ones.
    expect(res.text).toContain('Analytical Engine');
  });

  it('answers from a document whose text is stored while its vectors are still being made, without saying it is not ready', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace');
    await seedDocument(server.database.db, { personalityId: id, fileName: 'engine-notes.txt', chunks: ENGINE_NOTES, processingState: 'processing' });
    const res = await chat(owner, id, { message: 'What about the Analytical Engine?' });
    expect(eventOf(res, 'start')!.documentsProcessing).toBe(false);
    expect(res.text).not.toContain('still being processed');
    expect(res.text).toContain('Analytical Engine');
    expect(eventOf(res, 'start')!.documentReferences[0].fileName).toMatch(/^engine-notes\.txt \(chunk \d+\)$/);
  });

  it('continues a saved conversation and offers four starters with the greeting', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace', { description: 'Mathematician, mathematician of the engine, and poet' });
    await seedDocument(server.database.db, { personalityId: id, fileName: 'engine_notes.txt', chunks: ENGINE_NOTES });
    const starters = await owner.get(`/api/personalities/${id}/starters`);
    expect(starters.status).toBe(200);
    expect(starters.body.starters).toHaveLength(4);
    expect(new Set(starters.body.starters).size).toBe(4);
    expect(starters.body.starters).toContain('What can you tell me about "engine notes"?');
    expect(starters.body.greeting).toContain('Ada Lovelace');
    expect(starters.body.responder).toEqual({ mode: 'offline', label: 'Offline responder' });

    const created = await owner.post(`/api/personalities/${id}/conversations`, {});
    expect(created.status).toBe(201);
    const conversationId = created.body.conversation.id;
    expect(created.body.conversation.messages).toHaveLength(1);
    expect(created.body.conversation.messages[0]).toMatchObject({ kind: 'greeting', content: starters.body.greeting });

    const first = await chat(owner, id, { conversationId, message: 'Who is Babbage?' });
    expect(eventOf(first, 'start')!.conversationId).toBe(conversationId);
    await chat(owner, id, { conversationId, message: 'And the loom?' });
    const list = await owner.get(`/api/personalities/${id}/conversations`);
    expect(list.body.conversations).toHaveLength(1);
    expect(list.body.conversations[0]).toMatchObject({ id: conversationId, title: 'Who is Babbage?', messageCount: 5 });

    const renamed = await owner.patch(`/api/conversations/${conversationId}`, { title: '  Engines  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.conversation.title).toBe('Engines');
    expect((await owner.patch(`/api/conversations/${conversationId}`, { title: ' ' })).status).toBe(400);
    for (const title of ['\u200B', '\u200F\u200D', '\u0301']) {
      const invisible = await owner.patch(`/api/conversations/${conversationId}`, { title });
      expect(invisible.status).toBe(400);
      expect(invisible.body.error.message).toBe('Please enter a title');
      const created = await owner.post(`/api/personalities/${id}/conversations`, { title });
      expect(created.status).toBe(400);
    }
    const long = await owner.patch(`/api/conversations/${conversationId}`, { title: 't'.repeat(121) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('Title must be at most 120 characters');
    expect((await owner.get(`/api/conversations/${conversationId}`)).body.conversation.title).toBe('Engines');
    expect((await owner.delete(`/api/conversations/${conversationId}`)).status).toBe(200);
    expect((await owner.get(`/api/conversations/${conversationId}`)).status).toBe(404);
  });
});
