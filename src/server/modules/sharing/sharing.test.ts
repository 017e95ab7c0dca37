import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { ADMIN_EMAIL, createPersonality, libraryNames, shareWith, startSharingServer } from './sharing.test-support';

let server: TestServer;
let admin: TestClient;
beforeAll(async () => {
  server = await startSharingServer();
  admin = await server.user(ADMIN_EMAIL);
});
afterAll(async () => {
  await server?.close();
});

describe('sharing level', () => {
  it('applies private and shared at once and keeps is_public false', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Level Test');
    const shared = await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'shared' });
    expect(shared.status).toBe(200);
    expect(shared.body.personality).toEqual({ id, sharingType: 'shared', isPublic: false });
    expect((await owner.get(`/api/personalities/${id}`)).body.personality).toMatchObject({ sharingType: 'shared', isPublic: false });
    const priv = await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'private' });
    expect(priv.body.personality).toEqual({ id, sharingType: 'private', isPublic: false });
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.sharingType).toBe('private');
  });

  it('refuses public for a non-admin with "Admin approval required" and changes nothing', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Wants Fame');
    await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'shared' });
    const res = await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'public' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(messages.sharing.adminApprovalRequired);
    expect(res.body.error.details.reason).toBe('ADMIN_APPROVAL_REQUIRED');
    expect(res.body.error.details.hint).toContain('Request Public');
    expect((await owner.get(`/api/personalities/${id}`)).body.personality).toMatchObject({ sharingType: 'shared', isPublic: false });
    expect(await libraryNames(server.client())).not.toContain('Wants Fame');
  });

  it('lets an admin make their own personality public at once, and private again', async () => {
    const id = await createPersonality(admin, 'Admin Public');
    const res = await admin.put(`/api/personalities/${id}/sharing`, { sharingType: 'public' });
    expect(res.status).toBe(200);
    expect(res.body.personality).toEqual({ id, sharingType: 'public', isPublic: true });
    expect(await libraryNames(server.client())).toContain('Admin Public');
    const back = await admin.put(`/api/personalities/${id}/sharing`, { sharingType: 'private' });
    expect(back.body.personality).toEqual({ id, sharingType: 'private', isPublic: false });
    expect(await libraryNames(server.client())).not.toContain('Admin Public');
  });

  it('rejects an unknown sharing type', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Bad Level');
    expect((await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'everyone' })).status).toBe(400);
    expect((await owner.put(`/api/personalities/${id}/sharing`, {})).status).toBe(400);
  });
});

describe('shares', () => {
  it('adds a person by e-mail, switching a private personality to shared in the same step', async () => {
    const owner = await server.user();
    const friend = await server.user();
    const id = await createPersonality(owner, 'Shared Sage');
    const res = await owner.post(`/api/personalities/${id}/shares`, { email: `  ${friend.email.toUpperCase()} ` });
    expect(res.status).toBe(201);
    expect(res.body.sharingType).toBe('shared');
    expect(res.body.share).toMatchObject({ userId: friend.id, email: friend.email });
    expect(typeof res.body.share.id).toBe('string');
    expect((await owner.get(`/api/personalities/${id}`)).body.personality).toMatchObject({ sharingType: 'shared', isPublic: false });
    const list = await owner.get(`/api/personalities/${id}/shares`);
    expect(list.status).toBe(200);
    expect(list.body.shares).toEqual([{ id: res.body.share.id, userId: friend.id, email: friend.email, createdAt: expect.any(String) }]);
  });

  it('keeps a public personality public when a person is added', async () => {
    const friend = await server.user();
    const id = await createPersonality(admin, 'Public Plus One');
    await admin.put(`/api/personalities/${id}/sharing`, { sharingType: 'public' });
    const res = await admin.post(`/api/personalities/${id}/shares`, { email: friend.email });
    expect(res.status).toBe(201);
    expect(res.body.sharingType).toBe('public');
    expect((await admin.get(`/api/personalities/${id}`)).body.personality).toMatchObject({ sharingType: 'public', isPublic: true });
    expect(await libraryNames(server.client())).toContain('Public Plus One');
  });

  it('reports blank, unknown, duplicate and self with the spec messages', async () => {
    const owner = await server.user();
    const friend = await server.user();
    const id = await createPersonality(owner, 'Picky');
    const blank = await owner.post(`/api/personalities/${id}/shares`, { email: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe(messages.sharing.emailRequired);
    const unknown = await owner.post(`/api/personalities/${id}/shares`, { email: 'nobody@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(messages.sharing.userNotFound);
    const self = await owner.post(`/api/personalities/${id}/shares`, { email: owner.email });
    expect(self.status).toBe(400);
    expect(self.body.error.message).toBe(messages.sharing.cannotShareWithSelf);
    // None of the refused attempts switched the level.
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.sharingType).toBe('private');
    await shareWith(owner, id, friend.email);
    const again = await owner.post(`/api/personalities/${id}/shares`, { email: friend.email });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(messages.sharing.alreadyAdded);
    expect((await owner.get(`/api/personalities/${id}/shares`)).body.shares).toHaveLength(1);
  });

  it('shows the personality to the recipient as shared, not owned, and takes it away on removal', async () => {
    const owner = await server.user();
    const friend = await server.user();
    const id = await createPersonality(owner, 'Visiting Muse');
    expect(await libraryNames(friend)).not.toContain('Visiting Muse');
    const shareId = await shareWith(owner, id, friend.email);

    const list = await friend.get('/api/personalities');
    const seen = list.body.personalities.find((p: { id: string }) => p.id === id);
    expect(seen).toMatchObject({ name: 'Visiting Muse', sharingType: 'shared', isOwner: false, isPublic: false });
    expect((await friend.get(`/api/personalities/${id}`)).status).toBe(200);
    expect(await libraryNames(server.client())).not.toContain('Visiting Muse');

    const removed = await owner.delete(`/api/personalities/${id}/shares/${shareId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true });
    expect(await libraryNames(friend)).not.toContain('Visiting Muse');
    expect((await friend.get(`/api/personalities/${id}`)).status).toBe(404);
    expect((await owner.get(`/api/personalities/${id}/shares`)).body.shares).toEqual([]);
    // Removing it twice: the share is gone.
    const twice = await owner.delete(`/api/personalities/${id}/shares/${shareId}`);
    expect(twice.status).toBe(404);
    expect(twice.body.error.message).toBe(messages.sharing.shareNotFound);
  });

  it('lets a recipient remove a personality shared with them from their own library, and only their share', async () => {
    const owner = await server.user();
    const friend = await server.user();
    const other = await server.user();
    const id = await createPersonality(owner, 'Unwanted Guest');
    await shareWith(owner, id, friend.email);
    await shareWith(owner, id, other.email);
    // Nobody but a recipient can use it, and nothing of the owner's changes.
    expect((await server.client().delete(`/api/personalities/${id}/my-share`)).status).toBe(401);
    expect((await owner.delete(`/api/personalities/${id}/my-share`)).status).toBe(404);
    expect((await (await server.user()).delete(`/api/personalities/${id}/my-share`)).status).toBe(404);

    const left = await friend.delete(`/api/personalities/${id}/my-share`);
    expect(left.status).toBe(200);
    expect(left.body).toEqual({ ok: true });
    expect(await libraryNames(friend)).not.toContain('Unwanted Guest');
    expect((await friend.get(`/api/personalities/${id}`)).status).toBe(404);
    expect(await libraryNames(other)).toContain('Unwanted Guest');
    expect((await owner.get(`/api/personalities/${id}/shares`)).body.shares.map((s: { email: string }) => s.email)).toEqual([other.email]);
    expect((await friend.delete(`/api/personalities/${id}/my-share`)).status).toBe(404);
    // The owner may share it again.
    await shareWith(owner, id, friend.email);
    expect(await libraryNames(friend)).toContain('Unwanted Guest');
  });

  it('hides a shared personality from recipients while the owner keeps it private', async () => {
    const owner = await server.user();
    const friend = await server.user();
    const id = await createPersonality(owner, 'Door Closer');
    await shareWith(owner, id, friend.email);
    await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'private' });
    expect((await friend.get(`/api/personalities/${id}`)).status).toBe(404);
    await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'shared' });
    expect((await friend.get(`/api/personalities/${id}`)).status).toBe(200);
  });

  it('cannot remove a share through another personality', async () => {
    const owner = await server.user();
    const friend = await server.user();
    const a = await createPersonality(owner, 'Alpha');
    const b = await createPersonality(owner, 'Beta');
    const shareOfA = await shareWith(owner, a, friend.email);
    expect((await owner.delete(`/api/personalities/${b}/shares/${shareOfA}`)).status).toBe(404);
    expect((await owner.delete(`/api/personalities/${b}/shares/not-a-uuid`)).status).toBe(404);
    expect((await owner.get(`/api/personalities/${a}/shares`)).body.shares).toHaveLength(1);
  });

  it('removes shares with the personality when it is deleted', async () => {
    const owner = await server.user();
    const friend = await server.user();
    const id = await createPersonality(owner, 'Short Lived');
    await shareWith(owner, id, friend.email);
    expect((await owner.delete(`/api/personalities/${id}`)).status).toBe(200);
    expect(await libraryNames(friend)).not.toContain('Short Lived');
    expect((await owner.get(`/api/personalities/${id}/shares`)).status).toBe(404);
  });
});
