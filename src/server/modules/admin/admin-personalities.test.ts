import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { eq } from 'drizzle-orm';
import { personalities } from '../../db/schema/personalities';
import {
  ADMIN_EMAIL,
  createPersonality,
  libraryNames,
  publishViaApproval,
  startSharingServer,
  tickingClock,
} from '../sharing/sharing.test-support';

let server: TestServer;
let admin: TestClient;
let owner: TestClient & { email: string };
const ids: Record<string, string> = {};

// Four public personalities (published in this order: Delta, Bravo, Charlie, Alpha), one private.
beforeAll(async () => {
  server = await startSharingServer(tickingClock());
  admin = await server.user(ADMIN_EMAIL);
  owner = await server.user();
  for (const name of ['Delta', 'Bravo', 'Charlie', 'Alpha']) {
    ids[name] = await createPersonality(owner, name, { description: `${name} text` });
    await publishViaApproval(owner, admin, ids[name]!);
  }
  ids.Hidden = await createPersonality(owner, 'Hidden');
});
afterAll(async () => {
  await server?.close();
});

const names = (res: { body: { personalities: { name: string }[] } }) => res.body.personalities.map((p) => p.name);

describe('admin: public personalities', () => {
  it('lists public personalities most recently updated first, with the creator e-mail', async () => {
    const res = await admin.get('/api/admin/personalities/public');
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Alpha', 'Charlie', 'Bravo', 'Delta']);
    expect(res.body.personalities[0]).toEqual({
      id: ids.Alpha,
      name: 'Alpha',
      description: 'Alpha text',
      creatorEmail: owner.email,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      sharingType: 'public',
      displayOrder: null,
      hasAvatar: false,
    });
    expect((await admin.get('/api/admin/summary')).body.publicCount).toBe(4);
  });

  it('says which personalities have an avatar image (a PNG character card\'s picture)', async () => {
    await server.database.db.update(personalities).set({ avatarKey: 'x/avatar.png' }).where(eq(personalities.id, ids.Bravo!));
    try {
      const res = await admin.get('/api/admin/personalities/public');
      const byName = Object.fromEntries((res.body.personalities as { name: string; hasAvatar: boolean }[]).map((p) => [p.name, p.hasAvatar]));
      expect(byName).toEqual({ Alpha: false, Bravo: true, Charlie: false, Delta: false });
    } finally {
      await server.database.db.update(personalities).set({ avatarKey: null }).where(eq(personalities.id, ids.Bravo!));
    }
  });

  it('lists the library order: display order (nulls last) then name', async () => {
    const res = await admin.get('/api/admin/personalities/ordering');
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
  });

  it('saves a new order in one request, and the public library follows it', async () => {
    const order = ['Charlie', 'Alpha', 'Delta', 'Bravo'];
    const res = await admin.put('/api/admin/personalities/order', {
      updates: order.map((name, i) => ({ id: ids[name], displayOrder: i + 1 })),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 4 });
    const ordering = await admin.get('/api/admin/personalities/ordering');
    expect(names(ordering)).toEqual(order);
    expect(ordering.body.personalities.map((p: { displayOrder: number }) => p.displayOrder)).toEqual([1, 2, 3, 4]);
    expect(await libraryNames(server.client())).toEqual(order);
    // A signed-in owner sees public ones first in that order, then their own by name.
    expect(await libraryNames(owner)).toEqual([...order, 'Hidden']);
    // Saving an order is not an edit: the "most recently updated" list is unchanged.
    expect(names(await admin.get('/api/admin/personalities/public'))).toEqual(['Alpha', 'Charlie', 'Bravo', 'Delta']);
  });

  it('saves nothing when any id is unknown or not public', async () => {
    const before = names(await admin.get('/api/admin/personalities/ordering'));
    const withPrivate = await admin.put('/api/admin/personalities/order', {
      updates: [
        { id: ids.Bravo, displayOrder: 1 },
        { id: ids.Hidden, displayOrder: 2 },
      ],
    });
    expect(withPrivate.status).toBe(400);
    expect(withPrivate.body.error.message).toBe(messages.admin.orderNotPublic);
    expect(withPrivate.body.error.details.ids).toEqual([ids.Hidden]);
    const withUnknown = await admin.put('/api/admin/personalities/order', {
      updates: [
        { id: ids.Bravo, displayOrder: 1 },
        { id: '00000000-0000-4000-8000-000000000000', displayOrder: 2 },
      ],
    });
    expect(withUnknown.status).toBe(400);
    expect(names(await admin.get('/api/admin/personalities/ordering'))).toEqual(before);
  });

  it('validates the order body', async () => {
    const put = (body: unknown) => admin.put('/api/admin/personalities/order', body);
    expect((await put({ updates: [{ id: ids.Alpha, displayOrder: -1 }] })).status).toBe(400);
    expect((await put({ updates: [{ id: ids.Alpha, displayOrder: 1.5 }] })).status).toBe(400);
    expect((await put({ updates: [{ id: ids.Alpha, displayOrder: '1' }] })).status).toBe(400);
    expect((await put({ updates: [{ id: 'not-a-uuid', displayOrder: 1 }] })).status).toBe(400);
    expect((await put({})).status).toBe(400);
    const dup = await put({ updates: [{ id: ids.Alpha, displayOrder: 1 }, { id: ids.Alpha, displayOrder: 2 }] });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe(messages.admin.orderDuplicateIds);
    // 0 is accepted (the UI turns a non-numeric input into 0).
    expect((await put({ updates: [{ id: ids.Alpha, displayOrder: 0 }] })).status).toBe(200);
    expect(names(await admin.get('/api/admin/personalities/ordering'))[0]).toBe('Alpha');
    expect((await put({ updates: [] })).body).toEqual({ updated: 0 });
  });

  it('reverts a public personality to private', async () => {
    const orderOf = async (id: string) =>
      (await server.database.db.select({ o: personalities.displayOrder }).from(personalities).where(eq(personalities.id, id)))[0]!.o;
    expect((await admin.put('/api/admin/personalities/order', {
      updates: ['Delta', 'Alpha', 'Bravo', 'Charlie'].map((name, i) => ({ id: ids[name], displayOrder: i + 1 })),
    })).status).toBe(200);
    expect(await orderOf(ids.Delta!)).toBe(1);
    const res = await admin.post(`/api/admin/personalities/${ids.Delta}/revert`);
    expect(res.status).toBe(200);
    expect(res.body.personality).toMatchObject({ id: ids.Delta, name: 'Delta', sharingType: 'private' });
    expect((await owner.get(`/api/personalities/${ids.Delta}`)).body.personality).toMatchObject({
      sharingType: 'private',
      isPublic: false,
    });
    expect(await libraryNames(server.client())).not.toContain('Delta');
    expect(names(await admin.get('/api/admin/personalities/public'))).not.toContain('Delta');
    expect((await admin.get('/api/admin/summary')).body.publicCount).toBe(3);

    const again = await admin.post(`/api/admin/personalities/${ids.Delta}/revert`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(messages.admin.notPublic);
    expect((await admin.post('/api/admin/personalities/00000000-0000-4000-8000-000000000000/revert')).status).toBe(404);
    expect((await admin.post('/api/admin/personalities/nope/revert')).status).toBe(404);

    // Its place in the public order went with it: approved again, it joins the end rather than
    // taking the first place back from the personality the admin has put there since.
    expect(await orderOf(ids.Delta!)).toBeNull();
    await publishViaApproval(owner, admin, ids.Delta!);
    expect(names(await admin.get('/api/admin/personalities/ordering'))).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
  });

  it('drops the place in the public order when the owner makes a public personality private', async () => {
    expect((await admin.put('/api/admin/personalities/order', {
      updates: ['Charlie', 'Alpha', 'Bravo', 'Delta'].map((name, i) => ({ id: ids[name], displayOrder: i + 1 })),
    })).status).toBe(200);
    expect((await owner.put(`/api/personalities/${ids.Charlie}/sharing`, { sharingType: 'private' })).status).toBe(200);
    const rows = await server.database.db.select({ o: personalities.displayOrder }).from(personalities).where(eq(personalities.id, ids.Charlie!));
    expect(rows[0]!.o).toBeNull();
  });
});
