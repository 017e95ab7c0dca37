// Library order, enforced by the server: public first by display_order (nulls last) then name;
// everything else after them, by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { personalities } from '../../db/schema/personalities';
import { personalityShares } from '../../db/schema/sharing';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('personality list order', () => {
  it('puts public ones first by display order (nulls last) then name, then the rest by name', async () => {
    const owner = await server.user();
    const other = await server.user();
    const db = server.database.db;
    async function make(by: typeof owner, name: string, sharing: 'private' | 'shared' | 'public', displayOrder: number | null = null) {
      const res = await by.post('/api/personalities', { name });
      expect(res.status).toBe(201);
      const id = res.body.personality.id as string;
      await db
        .update(personalities)
        .set({ sharingType: sharing, isPublic: sharing === 'public', displayOrder })
        .where(eq(personalities.id, id));
      return id;
    }
    // Inserted out of order on purpose; lower-case names avoid collation differences between servers.
    await make(owner, 'mira', 'private');
    await make(other, 'pub zeta', 'public', 1);
    await make(owner, 'pub nulls b', 'public');
    await make(owner, 'pub two b', 'public', 2);
    await make(owner, 'alma', 'private', 1); // display_order does not order private ones
    await make(other, 'pub nulls a', 'public');
    await make(owner, 'pub two a', 'public', 2);
    const shared = await make(other, 'carl', 'shared');
    await make(other, 'hidden', 'private');
    await db.insert(personalityShares).values({ personalityId: shared, sharedWithUserId: owner.id, sharedByUserId: other.id });

    const names = async (client: TestClient) =>
      ((await client.get('/api/personalities')).body.personalities as { name: string }[]).map((p) => p.name);

    expect(await names(owner)).toEqual([
      'pub zeta',
      'pub two a',
      'pub two b',
      'pub nulls a',
      'pub nulls b',
      'alma',
      'carl',
      'mira',
    ]);
    expect(await names(server.client())).toEqual(['pub zeta', 'pub two a', 'pub two b', 'pub nulls a', 'pub nulls b']);
    expect(await names(other)).toEqual(['pub zeta', 'pub two a', 'pub two b', 'pub nulls a', 'pub nulls b', 'carl', 'hidden']);
  });

  it('orders names regardless of letter case ("aardvark" before "Mango"), as the A-Z order does', async () => {
    const owner = await server.user();
    for (const name of ['Mango', 'aardvark', 'Zebra', 'banana']) expect((await owner.post('/api/personalities', { name })).status).toBe(201);
    const mine = ((await owner.get('/api/personalities')).body.personalities as { name: string; userId?: string }[]).map((p) => p.name).filter((n) => ['Mango', 'aardvark', 'Zebra', 'banana'].includes(n));
    expect(mine).toEqual(['aardvark', 'banana', 'Mango', 'Zebra']);
  });

  it('orders accented and non-Latin names beside their letters, not after Z (the database orders by code point)', async () => {
    const owner = await server.user();
    const wanted = ['Élodie', 'zebra', 'Лев', 'Elena', 'Zoë', 'Émile'];
    for (const name of wanted) expect((await owner.post('/api/personalities', { name })).status).toBe(201);
    const mine = ((await owner.get('/api/personalities')).body.personalities as { name: string }[]).map((p) => p.name).filter((n) => wanted.includes(n));
    expect(mine).toEqual(['Elena', 'Élodie', 'Émile', 'zebra', 'Zoë', 'Лев']);
  });
});
