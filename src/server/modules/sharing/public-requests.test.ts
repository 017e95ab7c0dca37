import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import { ADMIN_EMAIL, createPersonality, requestPublic, startSharingServer } from './sharing.test-support';

let server: TestServer;
let admin: TestClient;
beforeAll(async () => {
  server = await startSharingServer();
  admin = await server.user(ADMIN_EMAIL);
});
afterAll(async () => {
  await server?.close();
});

const latest = async (owner: TestClient, id: string) => (await owner.get(`/api/personalities/${id}/public-request`)).body.request;

describe('public requests (owner side)', () => {
  it('has no request at first, then shows the pending one with the trimmed message', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Hopeful');
    const none = await owner.get(`/api/personalities/${id}/public-request`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ request: null });

    const res = await owner.post(`/api/personalities/${id}/public-requests`, { message: '  Please, it is lovely.  ' });
    expect(res.status).toBe(201);
    expect(res.body.request).toMatchObject({ status: 'pending', requestMessage: 'Please, it is lovely.', reviewedAt: null });
    expect(await latest(owner, id)).toEqual(res.body.request);
    // Asking does not change the level.
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.sharingType).toBe('private');
  });

  it('stores a blank or missing message as null and refuses an over-long one', async () => {
    const owner = await server.user();
    const a = await createPersonality(owner, 'Quiet A');
    const b = await createPersonality(owner, 'Quiet B');
    const c = await createPersonality(owner, 'Quiet C');
    expect((await owner.post(`/api/personalities/${a}/public-requests`, { message: '   ' })).body.request.requestMessage).toBeNull();
    expect((await owner.post(`/api/personalities/${b}/public-requests`, {})).body.request.requestMessage).toBeNull();
    const long = await owner.post(`/api/personalities/${c}/public-requests`, { message: 'x'.repeat(limits.requestMessageMax + 1) });
    expect(long.status).toBe(400);
    expect(await latest(owner, c)).toBeNull();
  });

  it('is withdrawn when the owner then chooses private or shared, so an approval cannot publish it', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Second Thoughts');
    const requestId = await requestPublic(owner, id);
    const set = await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'private' });
    expect(set.status).toBe(200);
    expect(await latest(owner, id)).toBeNull();
    const approved = await admin.post(`/api/admin/public-requests/${requestId}/approve`);
    expect(approved.status).toBe(404);
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.sharingType).toBe('private');
    expect((await server.client().get(`/api/personalities/${id}`)).status).toBe(404);

    // Shared only is a choice against public too; sharing with someone (which switches a private
    // personality to shared by itself) is not, and leaves the request pending.
    await requestPublic(owner, id);
    const friend = await server.user();
    expect((await owner.post(`/api/personalities/${id}/shares`, { email: friend.email })).status).toBe(201);
    expect((await latest(owner, id)).status).toBe('pending');
    await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'shared' });
    expect(await latest(owner, id)).toBeNull();
    const pending = (await admin.get('/api/admin/public-requests')).body.pending as { personalityId: string }[];
    expect(pending.some((r) => r.personalityId === id)).toBe(false);
  });

  it('refuses a second request while one is pending', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Eager');
    await requestPublic(owner, id);
    const again = await owner.post(`/api/personalities/${id}/public-requests`, { message: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(messages.sharing.requestAlreadyPending);
  });

  it('leaves exactly one pending request when several are sent at once', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Racer');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => owner.post(`/api/personalities/${id}/public-requests`, { message: `try ${i}` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.error.message).toBe(messages.sharing.requestAlreadyPending);
    }
    const queue = await admin.get('/api/admin/public-requests');
    expect(queue.body.pending.filter((p: { personalityId: string }) => p.personalityId === id)).toHaveLength(1);
  });

  it('refuses a request for a personality that is already public', async () => {
    const id = await createPersonality(admin, 'Already Out');
    await admin.put(`/api/personalities/${id}/sharing`, { sharingType: 'public' });
    const res = await admin.post(`/api/personalities/${id}/public-requests`, {});
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(messages.sharing.alreadyPublic);
  });

  it('shows a rejection to the owner and lets them ask again', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Second Chance');
    const first = await requestPublic(owner, id, 'first');
    expect((await admin.post(`/api/admin/public-requests/${first}/reject`)).status).toBe(200);
    const rejected = await latest(owner, id);
    expect(rejected).toMatchObject({ id: first, status: 'rejected', requestMessage: 'first' });
    expect(rejected.reviewedAt).toEqual(expect.any(String));

    const second = await requestPublic(owner, id, 'second');
    expect(second).not.toBe(first);
    expect(await latest(owner, id)).toMatchObject({ id: second, status: 'pending', requestMessage: 'second' });
  });

  it('shows the approval to the owner, and after an admin revert they may ask again', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Approved Once');
    const requestId = await requestPublic(owner, id);
    await admin.post(`/api/admin/public-requests/${requestId}/approve`);
    expect(await latest(owner, id)).toMatchObject({ id: requestId, status: 'approved' });
    await admin.post(`/api/admin/personalities/${id}/revert`);
    expect((await owner.post(`/api/personalities/${id}/public-requests`, {})).status).toBe(201);
  });
});
