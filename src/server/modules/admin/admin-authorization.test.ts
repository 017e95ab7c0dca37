// Authorization matrix for every /api/admin route: anonymous 401; stranger, share recipient and
// owner 403 (even with a hand-crafted valid request); admin allowed. Refused calls change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import {
  ADMIN_EMAIL,
  createPersonality,
  publishViaApproval,
  requestPublic,
  shareWith,
  startSharingServer,
} from '../sharing/sharing.test-support';

let server: TestServer;
let clients: Record<'anonymous' | 'stranger' | 'recipient' | 'owner' | 'admin', TestClient>;
let pendingA: string;
let pendingB: string;
let publicId: string;

beforeAll(async () => {
  server = await startSharingServer();
  const admin = await server.user(ADMIN_EMAIL);
  const owner = await server.user();
  const recipient = await server.user();
  const stranger = await server.user();
  clients = { anonymous: server.client(), stranger, recipient, owner, admin };
  publicId = await createPersonality(owner, 'Already Public');
  await publishViaApproval(owner, admin, publicId);
  const a = await createPersonality(owner, 'Waiting A');
  const b = await createPersonality(owner, 'Waiting B');
  await shareWith(owner, a, recipient.email);
  pendingA = await requestPublic(owner, a);
  pendingB = await requestPublic(owner, b);
});
afterAll(async () => {
  await server?.close();
});

interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  path: () => string;
  body?: () => unknown;
  adminStatus: number;
}

const routes: RouteCase[] = [
  { name: 'summary', method: 'GET', path: () => '/api/admin/summary', adminStatus: 200 },
  { name: 'list requests', method: 'GET', path: () => '/api/admin/public-requests', adminStatus: 200 },
  { name: 'list public', method: 'GET', path: () => '/api/admin/personalities/public', adminStatus: 200 },
  { name: 'ordering', method: 'GET', path: () => '/api/admin/personalities/ordering', adminStatus: 200 },
  {
    name: 'bulk order',
    method: 'PUT',
    path: () => '/api/admin/personalities/order',
    body: () => ({ updates: [{ id: publicId, displayOrder: 7 }] }),
    adminStatus: 200,
  },
  { name: 'approve', method: 'POST', path: () => `/api/admin/public-requests/${pendingA}/approve`, adminStatus: 200 },
  { name: 'reject', method: 'POST', path: () => `/api/admin/public-requests/${pendingB}/reject`, adminStatus: 200 },
  { name: 'revert', method: 'POST', path: () => `/api/admin/personalities/${publicId}/revert`, adminStatus: 200 },
  { name: 'list content flags', method: 'GET', path: () => '/api/admin/content-flags', adminStatus: 200 },
  // An unknown flag id: non-admins are refused before the id is even looked at.
  {
    name: 'review a content flag',
    method: 'POST',
    path: () => '/api/admin/content-flags/00000000-0000-4000-8000-000000000000/review',
    body: () => ({ status: 'approved' }),
    adminStatus: 404,
  },
];

async function expectUntouched() {
  const admin = clients.admin;
  const q = (await admin.get('/api/admin/public-requests')).body;
  expect(q.pending.map((p: { id: string }) => p.id).sort()).toEqual([pendingA, pendingB].sort());
  const ordering = (await admin.get('/api/admin/personalities/ordering')).body.personalities;
  expect(ordering).toEqual([expect.objectContaining({ id: publicId, sharingType: 'public', displayOrder: null })]);
  expect((await admin.get('/api/admin/summary')).body).toEqual({ publicCount: 1, pendingCount: 2 });
}

describe('admin routes: non-admins are refused', () => {
  for (const role of ['anonymous', 'stranger', 'recipient', 'owner'] as const) {
    it(`${role}`, async () => {
      const expectedStatus = role === 'anonymous' ? 401 : 403;
      for (const route of routes) {
        const res = await clients[role].request(route.method, route.path(), route.body?.());
        expect(res.status, `${role} ${route.name}`).toBe(expectedStatus);
        if (expectedStatus === 403) expect(res.body.error.message).toBe(messages.admin.adminOnly);
      }
      await expectUntouched();
    });
  }

  it('refuses a non-admin before looking at the body or the id', async () => {
    const res = await clients.owner.put('/api/admin/personalities/order', { updates: 'garbage' });
    expect(res.status).toBe(403);
    expect((await clients.stranger.post('/api/admin/public-requests/not-an-id/approve')).status).toBe(403);
    expect((await clients.anonymous.put('/api/admin/personalities/order', { nonsense: true })).status).toBe(401);
  });
});

describe('admin routes: the admin', () => {
  it('may call every one of them', async () => {
    for (const route of routes) {
      const res = await clients.admin.request(route.method, route.path(), route.body?.());
      expect(res.status, `admin ${route.name}: ${JSON.stringify(res.body)}`).toBe(route.adminStatus);
    }
    const q = (await clients.admin.get('/api/admin/public-requests')).body;
    expect(q.pending).toEqual([]);
    expect(q.recent.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual(
      expect.arrayContaining([
        [pendingA, 'approved'],
        [pendingB, 'rejected'],
      ]),
    );
  });
});
