// Feedback is saved with who sent it (or null), category (default general), rating or null,
// trimmed text, user agent and page URL; signed in or not. Bad feedback gets a clear 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { userFeedback } from '../../db/schema/feedback';
import { FEEDBACK_CATEGORIES, limits } from '../../../shared/limits';
import { messages } from '../../../shared/messages';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function saved(id: string) {
  const rows = await server.database.db.select().from(userFeedback).where(eq(userFeedback.id, id));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('POST /api/feedback', () => {
  it('saves signed-in feedback with the user, category, rating, trimmed text, user agent and page url', async () => {
    const person = await server.user();
    const res = await person.request(
      'POST',
      '/api/feedback',
      { category: 'bug', rating: 4, feedback: '  The button is blue  \n', url: 'http://127.0.0.1:3000/?tab=1' },
      { 'user-agent': 'KindredTest/1.0' },
    );
    expect(res.status).toBe(201);
    expect(typeof res.body.id).toBe('string');
    expect(await saved(res.body.id)).toMatchObject({
      userId: person.id,
      category: 'bug',
      rating: 4,
      feedback: 'The button is blue',
      userAgent: 'KindredTest/1.0',
      url: 'http://127.0.0.1:3000/?tab=1',
    });
  });

  it('saves anonymous feedback with a null user, the general category and a null rating by default', async () => {
    const res = await server.client().post('/api/feedback', { feedback: 'Lovely' });
    expect(res.status).toBe(201);
    expect(await saved(res.body.id)).toMatchObject({ userId: null, category: 'general', rating: null, feedback: 'Lovely' });
  });

  it('accepts every spec category and an explicit null rating', async () => {
    for (const { value } of FEEDBACK_CATEGORIES) {
      const res = await server.client().post('/api/feedback', { category: value, rating: null, feedback: `about ${value}` });
      expect(res.status).toBe(201);
      expect((await saved(res.body.id)).category).toBe(value);
    }
  });

  it('keeps only an http(s) page url', async () => {
    const js = await server.client().post('/api/feedback', { feedback: 'x', url: 'javascript:alert(1)' });
    expect(js.status).toBe(201);
    expect((await saved(js.body.id)).url).toBeNull();
  });

  it.each([
    ['missing', {}],
    ['empty', { feedback: '' }],
    ['blank', { feedback: '  \n\t ' }],
    ['zero-width space', { feedback: '\u200B' }],
    ['invisible characters', { feedback: ' \u200D\u200F\uFEFF\u0301 ' }],
  ])('refuses %s feedback with the spec message', async (_label, body) => {
    const res = await server.client().post('/api/feedback', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: messages.feedback.empty } });
  });

  it.each([0, 6, -1, 2.5, '3'])('refuses the rating %j', async (rating) => {
    const res = await server.client().post('/api/feedback', { feedback: 'ok', rating });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  it('refuses an unknown category, unknown fields and overlong text', async () => {
    expect((await server.client().post('/api/feedback', { feedback: 'ok', category: 'rant' })).status).toBe(400);
    const unknown = await server.client().post('/api/feedback', { feedback: 'ok', userId: 'someone-else' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('Unknown field: userId');
    expect((await server.client().post('/api/feedback', { feedback: 'f'.repeat(limits.feedbackMax + 1) })).status).toBe(400);
  });

  it('refuses a rating that is not a whole number from 1 to 5 with one message that says so', async () => {
    for (const rating of [0, 6, 2.5, '4', true]) {
      const res = await server.client().post('/api/feedback', { feedback: 'ok', rating });
      expect(res.status, String(rating)).toBe(400);
      expect(res.body.error.message).toBe('Rating must be a whole number from 1 to 5');
    }
    expect((await server.client().post('/api/feedback', { feedback: 'ok', rating: 5 })).status).toBe(201);
  });

  it('refuses a NUL character with 400, not 500', async () => {
    const res = await server.client().post('/api/feedback', { feedback: 'a\u0000b' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(messages.errors.unstorableText);
  });

  it('answers bad JSON with 400', async () => {
    const res = await server.client().request('POST', '/api/feedback', '{"feedback": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(messages.errors.badJson);
  });
});
