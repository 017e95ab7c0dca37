// Helpers shared by the sharing and admin tests (not a test file itself).
import { expect } from 'vitest';
import type { Clock } from '../../lib/clock';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';

export const ADMIN_EMAIL = 'admin@example.com';

/** A server where ADMIN_EMAILS names ADMIN_EMAIL; sign that address up to get an admin. */
export function startSharingServer(clock?: Clock): Promise<TestServer> {
  return startTestServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL }, clock });
}

/** Each reading is one second after the previous one, so "latest" orderings are unambiguous. */
export function tickingClock(startIso = '2025-01-01T00:00:00Z'): Clock {
  let t = Date.parse(startIso);
  return { now: () => new Date((t += 1000)) };
}

export async function createPersonality(owner: TestClient, name: string, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await owner.post('/api/personalities', { name, ...fields });
  expect(res.status).toBe(201);
  return res.body.personality.id as string;
}

export async function shareWith(owner: TestClient, personalityId: string, email: string): Promise<string> {
  const res = await owner.post(`/api/personalities/${personalityId}/shares`, { email });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.share.id as string;
}

export async function requestPublic(owner: TestClient, personalityId: string, message?: string): Promise<string> {
  const res = await owner.post(`/api/personalities/${personalityId}/public-requests`, message === undefined ? {} : { message });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.request.id as string;
}

/** The owner asks, the admin approves: the normal way a personality becomes public. */
export async function publishViaApproval(owner: TestClient, admin: TestClient, personalityId: string): Promise<void> {
  const requestId = await requestPublic(owner, personalityId);
  const res = await admin.post(`/api/admin/public-requests/${requestId}/approve`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function libraryNames(client: TestClient): Promise<string[]> {
  const res = await client.get('/api/personalities');
  expect(res.status).toBe(200);
  return (res.body.personalities as { name: string }[]).map((p) => p.name);
}
