import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { user } from '../../db/schema/auth';
import { personalities } from '../../db/schema/personalities';
import type { TestClient, TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import {
  ADMIN_EMAIL,
  createPersonality,
  libraryNames,
  requestPublic,
  startSharingServer,
  tickingClock,
} from '../sharing/sharing.test-support';

let server: TestServer;
let admin: TestClient;
beforeAll(async () => {
  server = await startSharingServer(tickingClock());
  admin = await server.user(ADMIN_EMAIL);
});
afterAll(async () => {
  await server?.close();
});

const queue = async () => (await admin.get('/api/admin/public-requests')).body as { pending: any[]; recent: any[] };
const summary = async () => (await admin.get('/api/admin/summary')).body as { publicCount: number; pendingCount: number };

describe('admin public requests', () => {
  it('lists a pending request with everything the review card shows, and counts it', async () => {
    const before = await summary();
    const owner = await server.user();
    const id = await createPersonality(owner, 'Card Check', { description: 'A description', behaviorInstructions: 'Be kind' });
    const requestId = await requestPublic(owner, id, ' Hello admin ');
    const item = (await queue()).pending.find((p) => p.id === requestId);
    expect(item).toEqual({
      id: requestId,
      personalityId: id,
      personalityName: 'Card Check',
      personalityDeleted: false,
      personalityNameAtRequest: 'Card Check',
      description: 'A description',
      behaviorInstructions: 'Be kind',
      requesterEmail: owner.email,
      requestMessage: 'Hello admin',
      status: 'pending',
      createdAt: expect.any(String),
      reviewedAt: null,
    });
    expect(await summary()).toEqual({ publicCount: before.publicCount, pendingCount: before.pendingCount + 1 });
  });

  it('approves: the personality becomes public for everyone and the request records the review', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Soon Public');
    await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'shared' });
    const requestId = await requestPublic(owner, id);
    const before = await summary();
    expect(await libraryNames(server.client())).not.toContain('Soon Public');

    const res = await admin.post(`/api/admin/public-requests/${requestId}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({ id: requestId, status: 'approved', personalityId: id, reviewedAt: expect.any(String) });
    expect((await owner.get(`/api/personalities/${id}`)).body.personality).toMatchObject({ sharingType: 'public', isPublic: true });
    expect(await libraryNames(server.client())).toContain('Soon Public');
    expect(await summary()).toEqual({ publicCount: before.publicCount + 1, pendingCount: before.pendingCount - 1 });
    const q = await queue();
    expect(q.pending.map((p) => p.id)).not.toContain(requestId);
    expect(q.recent[0]).toMatchObject({ id: requestId, status: 'approved' });

    // A reviewed request cannot be reviewed again.
    const again = await admin.post(`/api/admin/public-requests/${requestId}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(messages.approval.alreadyReviewed);
    expect((await admin.post(`/api/admin/public-requests/${requestId}/reject`)).status).toBe(409);
  });

  it('rejects: status, reviewer time, and the personality stays as it was', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Not This Time');
    const requestId = await requestPublic(owner, id);
    const res = await admin.post(`/api/admin/public-requests/${requestId}/reject`);
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({ id: requestId, status: 'rejected', reviewedAt: expect.any(String) });
    expect((await owner.get(`/api/personalities/${id}`)).body.personality).toMatchObject({ sharingType: 'private', isPublic: false });
    expect((await admin.post(`/api/admin/public-requests/${requestId}/approve`)).status).toBe(409);
  });

  it('keeps a deleted personality readable as "[Deleted Personality]", refuses to approve it, allows reject', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Vanishing', { description: 'gone soon' });
    const requestId = await requestPublic(owner, id, 'please');
    expect((await owner.delete(`/api/personalities/${id}`)).status).toBe(200);

    const item = (await queue()).pending.find((p) => p.id === requestId);
    expect(item).toMatchObject({
      personalityId: null,
      personalityName: messages.approval.deletedPersonality,
      personalityDeleted: true,
      personalityNameAtRequest: 'Vanishing',
      description: null,
      behaviorInstructions: null,
      requesterEmail: owner.email,
      requestMessage: 'please',
    });
    const approve = await admin.post(`/api/admin/public-requests/${requestId}/approve`);
    expect(approve.status).toBe(409);
    expect(approve.body.error.message).toBe(messages.approval.personalityGone);
    expect((await owner.get(`/api/personalities/${id}`)).status).toBe(404);
    const reject = await admin.post(`/api/admin/public-requests/${requestId}/reject`);
    expect(reject.status).toBe(200);
    expect(reject.body.request).toMatchObject({ status: 'rejected', personalityDeleted: true });
  });

  it('answers 404 for unknown request ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect((await admin.post(`/api/admin/public-requests/${id}/approve`)).status).toBe(404);
      expect((await admin.post(`/api/admin/public-requests/${id}/reject`)).status).toBe(404);
    }
  });

  it('lists the 5 latest reviews, newest review first', async () => {
    const owner = await server.user();
    const reviewed: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = await createPersonality(owner, `Review ${i}`);
      const requestId = await requestPublic(owner, id);
      const action = i % 2 === 0 ? 'reject' : 'approve';
      expect((await admin.post(`/api/admin/public-requests/${requestId}/${action}`)).status).toBe(200);
      reviewed.push(requestId);
    }
    const { recent } = await queue();
    expect(recent.map((r) => r.id)).toEqual(reviewed.slice(-5).reverse());
    expect(recent.map((r) => r.status)).toEqual(['rejected', 'approved', 'rejected', 'approved', 'rejected']);
  });

  it('reads "[Unknown User]" when the requester account is gone (its personalities go with it)', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Orphan');
    const requestId = await requestPublic(owner, id);
    // Accounts cannot be deleted through the API yet; remove the row as an operator would.
    await server.database.db.delete(user).where(eq(user.id, owner.id));
    const item = (await queue()).pending.find((p) => p.id === requestId);
    expect(item).toMatchObject({
      requesterEmail: messages.approval.unknownUser,
      personalityDeleted: true,
      personalityName: messages.approval.deletedPersonality,
    });
    expect((await admin.post(`/api/admin/public-requests/${requestId}/reject`)).status).toBe(200);
  });
});

describe('approve racing delete', () => {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('never brings a deleted personality back', async () => {
    const owner = await server.user();
    for (let i = 0; i < 16; i++) {
      const id = await createPersonality(owner, `Race ${i}`);
      const requestId = await requestPublic(owner, id);
      const remove = () => owner.delete(`/api/personalities/${id}`);
      const approveIt = () => admin.post(`/api/admin/public-requests/${requestId}/approve`);
      // Alternate which one leaves first and stagger the other a little, so both interleavings
      // (approve wins the lock, delete wins it) occur. Timing only varies the schedule here.
      const lag = pause(i % 4);
      const [del, approve] =
        i % 2 === 0
          ? await Promise.all([remove(), lag.then(approveIt)])
          : await Promise.all([approveIt(), lag.then(remove)]).then(([a, d]) => [d, a] as const);
      expect(del.status).toBe(200);
      expect([200, 409]).toContain(approve.status);
      if (approve.status === 409) expect(approve.body.error.message).toBe(messages.approval.personalityGone);
      expect((await admin.get(`/api/personalities/${id}`)).status).toBe(404);
      expect((await server.client().get(`/api/personalities/${id}`)).status).toBe(404);
      expect(await libraryNames(server.client())).not.toContain(`Race ${i}`);
      const publicIds = (await admin.get('/api/admin/personalities/public')).body.personalities.map((p: { id: string }) => p.id);
      expect(publicIds).not.toContain(id);
      const request = (await queue()).recent.concat((await queue()).pending).find((r) => r.id === requestId);
      if (request) expect(request).toMatchObject({ personalityDeleted: true, personalityId: null });
    }
  });

  it('an approve that arrives while a delete holds the row waits, then refuses', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Held');
    const requestId = await requestPublic(owner, id);
    let approve: Promise<{ status: number; body: any }> | undefined;
    await server.database.db.transaction(async (tx) => {
      await tx.select({ id: personalities.id }).from(personalities).where(eq(personalities.id, id)).for('update');
      approve = admin.post(`/api/admin/public-requests/${requestId}/approve`);
      await pause(50); // let the approve reach the lock (it is correct either way)
      await tx.delete(personalities).where(eq(personalities.id, id));
    });
    const res = await approve!;
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(messages.approval.personalityGone);
    expect((await admin.get(`/api/personalities/${id}`)).status).toBe(404);
  });
});
