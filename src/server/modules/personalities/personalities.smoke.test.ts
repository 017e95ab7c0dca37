import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('personalities (smoke)', () => {
  it('creates a personality for a signed-in user and hides it from anonymous visitors', async () => {
    const owner = await server.user();
    const created = await owner.post('/api/personalities', { name: '  Ada Lovelace ' });
    expect(created.status).toBe(201);
    expect(created.body.personality.name).toBe('Ada Lovelace');
    const anonymous = await server.client().get('/api/personalities');
    expect(anonymous.body.personalities).toEqual([]);
    const mine = await owner.get('/api/personalities');
    expect(mine.body.personalities.map((p: { name: string }) => p.name)).toEqual(['Ada Lovelace']);
  });
});
