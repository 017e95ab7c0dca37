// The owner's question log: every chat question is logged (with the asker when signed in), the
// latest 50 newest first, deletion strictly before a date, and logging never fails a chat.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { chat, createPersonality, eventOf, makePublic } from '../conversations/conversations.test-support';

let now = Date.parse('2025-03-01T10:00:00Z');
const clock = { now: () => new Date(now) };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(async () => {
  await server?.close();
});

describe('personality questions', () => {
  it('logs each question, lists them newest first with the registered-user flag, and deletes strictly earlier than the cutoff', async () => {
    const owner = await server.user();
    const asker = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace');
    await makePublic(server.database.db, id);

    now = Date.parse('2025-03-01T10:00:00Z');
    await chat(server.client(), id, { message: 'Anonymous question' });
    now = Date.parse('2025-03-02T00:00:00Z');
    await chat(asker, id, { message: '  Registered question  ' });
    now = Date.parse('2025-03-03T12:30:00Z');
    await chat(owner, id, { message: 'Owner question' });
    // Previewing is not asking.
    await owner.post(`/api/personalities/${id}/chat/preview`, { message: 'Only previewed' });

    const list = await owner.get(`/api/personalities/${id}/questions`);
    expect(list.status).toBe(200);
    expect(list.body.questions.map((q: { questionText: string; isRegisteredUser: boolean; askedAt: string }) => [q.questionText, q.isRegisteredUser, q.askedAt])).toEqual([
      ['Owner question', true, '2025-03-03T12:30:00.000Z'],
      ['Registered question', true, '2025-03-02T00:00:00.000Z'],
      ['Anonymous question', false, '2025-03-01T10:00:00.000Z'],
    ]);
    expect(list.body.questions[0]).not.toHaveProperty('userId');

    for (const bad of ['', '?before=', '?before=%20', '?before=not-a-date']) {
      const res = await owner.delete(`/api/personalities/${id}/questions${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Please select a date');
    }
    // The cutoff itself is kept: only the question strictly before midnight of March 2 goes.
    const deleted = await owner.delete(`/api/personalities/${id}/questions?before=2025-03-02`);
    expect(deleted.body).toEqual({ deleted: 1 });
    const after = await owner.get(`/api/personalities/${id}/questions`);
    expect(after.body.questions.map((q: { questionText: string }) => q.questionText)).toEqual(['Owner question', 'Registered question']);
    const iso = await owner.delete(`/api/personalities/${id}/questions?before=${encodeURIComponent('2025-03-03T12:30:00.001Z')}`);
    expect(iso.body).toEqual({ deleted: 2 });
  });

  it('lists only the latest 50, and only for that personality', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Busy Ada');
    const other = await createPersonality(owner, 'Quiet Ada');
    await chat(owner, other, { message: 'Elsewhere' });
    const rows = Array.from({ length: 55 }, (_, i) => sql`(${id}::uuid, ${`q${i}`}, ${new Date(Date.parse('2025-01-01T00:00:00Z') + i * 60_000).toISOString()}::timestamptz)`);
    await server.database.db.execute(sql`insert into personality_questions (personality_id, question_text, asked_at) values ${sql.join(rows, sql`, `)}`);
    const list = await owner.get(`/api/personalities/${id}/questions`);
    expect(list.body.questions).toHaveLength(50);
    expect(list.body.questions[0].questionText).toBe('q54');
    expect(list.body.questions[49].questionText).toBe('q5');
  });

  it('a failure to log the question never fails the chat', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Ada Lovelace');
    await server.database.db.execute(sql`alter table personality_questions rename to personality_questions_away`);
    try {
      const res = await chat(owner, id, { message: 'Will this still work?' });
      expect(res.status).toBe(200);
      expect(eventOf(res, 'done')).toBeDefined();
      expect(server.logs.some((l) => l.includes('WARN could not log a question'))).toBe(true);
    } finally {
      await server.database.db.execute(sql`alter table personality_questions_away rename to personality_questions`);
    }
  });
});
