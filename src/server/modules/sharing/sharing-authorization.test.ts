// Authorization matrix for every owner sharing route (and the personality edit/delete routes a
// share recipient must not reach), as anonymous, stranger, share recipient, admin (not the owner)
// and owner. Refused calls must also leave everything unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { ADMIN_EMAIL, createPersonality, libraryNames, publishViaApproval, shareWith, startSharingServer } from './sharing.test-support';

let server: TestServer;
let owner: TestClient & { email: string; id: string };
let recipient: TestClient & { email: string; id: string };
let stranger: TestClient & { email: string; id: string };
let admin: TestClient & { email: string; id: string };
let third: TestClient & { email: string; id: string };
let anonymous: TestClient;
let sharedId: string;
let publicId: string;
let shareOnShared: string;
let shareOnPublic: string;

beforeAll(async () => {
  server = await startSharingServer();
  admin = await server.user(ADMIN_EMAIL);
  owner = await server.user();
  recipient = await server.user();
  stranger = await server.user();
  third = await server.user();
  anonymous = server.client();
  sharedId = await createPersonality(owner, 'Shared One');
  shareOnShared = await shareWith(owner, sharedId, recipient.email);
  publicId = await createPersonality(owner, 'Public One');
  await publishViaApproval(owner, admin, publicId);
  shareOnPublic = await shareWith(owner, publicId, recipient.email);
});
afterAll(async () => {
  await server?.close();
});

interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (id: string, shareId: string) => string;
  body?: () => unknown;
}

const routes: RouteCase[] = [
  { name: 'change sharing level', method: 'PUT', path: (id) => `/api/personalities/${id}/sharing`, body: () => ({ sharingType: 'private' }) },
  { name: 'make public', method: 'PUT', path: (id) => `/api/personalities/${id}/sharing`, body: () => ({ sharingType: 'public' }) },
  { name: 'list shares', method: 'GET', path: (id) => `/api/personalities/${id}/shares` },
  { name: 'reshare', method: 'POST', path: (id) => `/api/personalities/${id}/shares`, body: () => ({ email: third.email }) },
  { name: 'unshare', method: 'DELETE', path: (id, shareId) => `/api/personalities/${id}/shares/${shareId}` },
  { name: 'read public request', method: 'GET', path: (id) => `/api/personalities/${id}/public-request` },
  { name: 'request public', method: 'POST', path: (id) => `/api/personalities/${id}/public-requests`, body: () => ({ message: 'me too' }) },
  { name: 'edit', method: 'PATCH', path: (id) => `/api/personalities/${id}`, body: () => ({ name: 'Hijacked' }) },
  { name: 'delete', method: 'DELETE', path: (id) => `/api/personalities/${id}` },
];

const call = (client: TestClient, route: RouteCase, id: string, shareId: string) =>
  client.request(route.method, route.path(id, shareId), route.body?.());

async function expectUntouched() {
  const shared = await owner.get(`/api/personalities/${sharedId}`);
  expect(shared.body.personality).toMatchObject({ name: 'Shared One', sharingType: 'shared', isPublic: false });
  const pub = await owner.get(`/api/personalities/${publicId}`);
  expect(pub.body.personality).toMatchObject({ name: 'Public One', sharingType: 'public', isPublic: true });
  for (const id of [sharedId, publicId]) {
    const shares = (await owner.get(`/api/personalities/${id}/shares`)).body.shares as { userId: string }[];
    expect(shares.map((s) => s.userId)).toEqual([recipient.id]);
  }
  expect((await owner.get(`/api/personalities/${sharedId}/public-request`)).body.request).toBeNull();
  expect((await owner.get(`/api/personalities/${publicId}/public-request`)).body.request.status).toBe('approved');
  expect(await libraryNames(third)).toEqual(['Public One']);
  expect((await recipient.get(`/api/personalities/${sharedId}`)).status).toBe(200);
}

describe('sharing routes: who is refused', () => {
  const roles = () => ({ anonymous, stranger, recipient, admin });
  // [personality, role] -> status. A non-owner who can see it gets 403; one who cannot, 404.
  const expected: Record<'shared' | 'public', Record<string, number>> = {
    shared: { anonymous: 401, stranger: 404, recipient: 403, admin: 404 },
    public: { anonymous: 401, stranger: 403, recipient: 403, admin: 403 },
  };

  for (const level of ['shared', 'public'] as const) {
    for (const role of ['anonymous', 'stranger', 'recipient', 'admin'] as const) {
      it(`${role} on a ${level} personality`, async () => {
        const id = level === 'shared' ? sharedId : publicId;
        const shareId = level === 'shared' ? shareOnShared : shareOnPublic;
        const client = roles()[role];
        for (const route of routes) {
          const res = await call(client, route, id, shareId);
          expect(res.status, `${role} ${route.name} on ${level}`).toBe(expected[level][role]);
          if (res.status === 403) expect(res.body.error.message).toBe(messages.personality.notOwner);
        }
        await expectUntouched();
      });
    }
  }

  it('a recipient still sees the shared personality as shared and not theirs', async () => {
    const seen = (await recipient.get('/api/personalities')).body.personalities.find((p: { id: string }) => p.id === sharedId);
    expect(seen).toMatchObject({ sharingType: 'shared', isOwner: false });
  });
});

describe('sharing routes: the owner', () => {
  it('may do every one of them', async () => {
    const statuses: Record<string, number> = {};
    for (const route of routes.filter((r) => r.name !== 'make public' && r.name !== 'delete')) {
      statuses[route.name] = (await call(owner, route, sharedId, shareOnShared)).status;
    }
    expect(statuses).toEqual({
      'change sharing level': 200,
      'list shares': 200,
      reshare: 201,
      unshare: 200,
      'read public request': 200,
      'request public': 201,
      edit: 200,
    });
    // Public stays an admin decision even for the owner.
    expect((await call(owner, routes[1]!, sharedId, shareOnShared)).status).toBe(403);
    expect((await owner.delete(`/api/personalities/${sharedId}`)).status).toBe(200);
    expect((await recipient.get(`/api/personalities/${sharedId}`)).status).toBe(404);
  });
});
