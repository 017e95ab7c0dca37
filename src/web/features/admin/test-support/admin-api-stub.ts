// Test support: the admin API (/api/admin/...) answering in its real JSON shapes, layered on the
// app's fake API through its override hook. Stateful: approving a request makes its personality
// public, reverting removes it from the public lists, saving an order stores it.
import { messages } from '../../../../shared/messages';
import type { AdminPersonality, AdminPublicRequest } from '../../../../shared/schemas/admin';
import type { ContentFlag } from '../../../../shared/schemas/moderation';
import { ada, fakeApi, type FakeAnswer, type FakeCall } from '../../../test-support/fake-api';

export interface RateLimitRow {
  endpoint: string;
  requestCount: number;
  windowStart: string;
  userId: string | null;
  ipAddress: string | null;
}

export interface AdminStubOptions {
  pending?: AdminPublicRequest[];
  recent?: AdminPublicRequest[];
  /** Public personalities in library order. */
  publicPersonalities?: AdminPersonality[];
  flags?: ContentFlag[];
  /** Today's voice credits (GET /api/admin/monitoring/voice-usage). */
  voiceUsage?: { date: string; charactersUsed: number; dailyLimit: number };
  /** Rate-limit windows, newest first (GET /api/admin/monitoring/rate-limits). */
  rateLimits?: RateLimitRow[];
  /** Pending requests and pending flags come a page of this many at a time (the server's is 50). */
  pageSize?: number;
  override?: (call: FakeCall) => FakeAnswer | undefined;
}

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

export function makeRequest(overrides: Partial<AdminPublicRequest> = {}): AdminPublicRequest {
  return {
    id: uuid(),
    personalityId: uuid(),
    personalityName: 'Marie Curie',
    personalityDeleted: false,
    personalityNameAtRequest: 'Marie Curie',
    description: 'Physicist and chemist.',
    behaviorInstructions: 'Speak precisely.',
    requesterEmail: 'bob@example.com',
    requestMessage: null,
    status: 'pending',
    createdAt: new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString(),
    reviewedAt: null,
    ...overrides,
  };
}

export function makeAdminPersonality(overrides: Partial<AdminPersonality> = {}): AdminPersonality {
  return {
    id: uuid(),
    name: 'Personality',
    description: null,
    creatorEmail: 'bob@example.com',
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
    sharingType: 'public',
    displayOrder: null,
    hasAvatar: false,
    ...overrides,
  };
}

export function makeFlag(overrides: Partial<ContentFlag> = {}): ContentFlag {
  return {
    id: uuid(),
    personalityId: uuid(),
    personalityName: 'Marie Curie',
    personalityDeleted: false,
    personalityNameAtFlag: overrides.personalityName ?? 'Marie Curie',
    personalityIsPublic: true,
    documentFileName: null,
    documentDeleted: false,
    reporter: null,
    source: 'message',
    flagTypes: ['harassment'],
    confidence: 0.85,
    excerpt: 'You are a worthless idiot.',
    reportReason: null,
    status: 'pending',
    adminNotes: null,
    reviewedAt: null,
    createdAt: new Date(Date.now() - 60 * 60 * 1000).toISOString(),
    ...overrides,
  };
}

const error = (status: number, code: string, message: string): FakeAnswer => ({ status, body: { error: { code, message } } });

/**
 * A page of `pending` in the order `order` gives (the server's, newest first), starting after the
 * item the cursor names, as the server's keyset pages do: an item reviewed meanwhile does not
 * shift the next page. The cursor is the last item's id (the server's is opaque too).
 */
function pageOf<T extends { id: string }>(pending: T[], order: string[], before: string | null, size: number) {
  const after = before === null ? -1 : order.indexOf(before);
  const rest = pending.filter((item) => order.indexOf(item.id) > after);
  const page = rest.slice(0, size);
  return { pending: page, pendingTotal: pending.length, nextCursor: rest.length > size ? page.at(-1)!.id : null };
}

export function stubAdminApi(options: AdminStubOptions = {}) {
  const state = {
    pending: [...(options.pending ?? [])],
    recent: [...(options.recent ?? [])],
    publicPersonalities: [...(options.publicPersonalities ?? [])],
    flags: [...(options.flags ?? [])],
    voiceUsage: options.voiceUsage ?? { date: new Date().toISOString().slice(0, 10), charactersUsed: 0, dailyLimit: 50_000 },
    rateLimits: [...(options.rateLimits ?? [])],
  };
  const pageSize = options.pageSize ?? 50;
  const requestOrder = state.pending.map((r) => r.id);

  const answer = ({ method, path, body, query }: FakeCall): FakeAnswer | undefined => {
    if (method === 'GET' && path === '/api/admin/summary') {
      return { status: 200, body: { publicCount: state.publicPersonalities.length, pendingCount: state.pending.length } };
    }
    if (method === 'GET' && path === '/api/admin/monitoring/voice-usage') return { status: 200, body: state.voiceUsage };
    if (method === 'GET' && path === '/api/admin/monitoring/rate-limits') return { status: 200, body: { rows: state.rateLimits } };
    if (method === 'GET' && path === '/api/admin/public-requests') {
      return { status: 200, body: { ...pageOf(state.pending, requestOrder, query.get('before'), pageSize), recent: state.recent.slice(0, 5) } };
    }
    const review = path.match(/^\/api\/admin\/public-requests\/([^/]+)\/(approve|reject)$/);
    if (method === 'POST' && review) {
      const index = state.pending.findIndex((r) => r.id === review[1]);
      if (index < 0) return error(404, 'NOT_FOUND', messages.approval.requestNotFound);
      const request = state.pending[index]!;
      if (review[2] === 'approve' && request.personalityDeleted) return error(409, 'CONFLICT', messages.approval.personalityGone);
      const reviewed: AdminPublicRequest = {
        ...request,
        status: review[2] === 'approve' ? 'approved' : 'rejected',
        reviewedAt: new Date().toISOString(),
      };
      state.pending.splice(index, 1);
      state.recent.unshift(reviewed);
      if (review[2] === 'approve') {
        state.publicPersonalities.push(makeAdminPersonality({ id: request.personalityId!, name: request.personalityName }));
      }
      return { status: 200, body: { request: reviewed } };
    }
    if (method === 'GET' && path === '/api/admin/content-flags') {
      const reviewed = state.flags.filter((f) => f.status !== 'pending').sort((a, b) => (b.reviewedAt ?? '').localeCompare(a.reviewedAt ?? ''));
      const pending = state.flags.filter((f) => f.status === 'pending');
      const order = state.flags.map((f) => f.id);
      return { status: 200, body: { ...pageOf(pending, order, query.get('before'), pageSize), recent: reviewed.slice(0, 10) } };
    }
    const flagReview = path.match(/^\/api\/admin\/content-flags\/([^/]+)\/review$/);
    if (method === 'POST' && flagReview) {
      const flag = state.flags.find((f) => f.id === flagReview[1]);
      if (!flag) return error(404, 'NOT_FOUND', messages.errors.notFound);
      if (flag.status !== 'pending') return error(409, 'CONFLICT', messages.admin.flagNotPending);
      const { status, adminNotes } = body as { status: 'approved' | 'rejected'; adminNotes?: string };
      Object.assign(flag, { status, adminNotes: adminNotes?.trim() || null, reviewedAt: new Date().toISOString() });
      return { status: 200, body: { flag } };
    }
    if (method === 'GET' && path === '/api/admin/personalities/public') {
      const byUpdated = [...state.publicPersonalities].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      return { status: 200, body: { personalities: byUpdated } };
    }
    const revert = path.match(/^\/api\/admin\/personalities\/([^/]+)\/revert$/);
    if (method === 'POST' && revert) {
      const index = state.publicPersonalities.findIndex((p) => p.id === revert[1]);
      if (index < 0) return error(404, 'NOT_FOUND', messages.personality.notFound);
      const [p] = state.publicPersonalities.splice(index, 1);
      return { status: 200, body: { personality: { ...p, sharingType: 'private' } } };
    }
    if (method === 'GET' && path === '/api/admin/personalities/ordering') {
      return { status: 200, body: { personalities: state.publicPersonalities } };
    }
    if (method === 'PUT' && path === '/api/admin/personalities/order') {
      const { updates } = body as { updates: { id: string; displayOrder: number }[] };
      for (const u of updates) {
        const p = state.publicPersonalities.find((x) => x.id === u.id);
        if (p) p.displayOrder = u.displayOrder;
      }
      state.publicPersonalities.sort((a, b) => (a.displayOrder ?? Infinity) - (b.displayOrder ?? Infinity) || a.name.localeCompare(b.name));
      return { status: 200, body: { updated: updates.length } };
    }
    return undefined;
  };

  const fake = fakeApi({ user: ada, isAdmin: true, override: (call) => options.override?.(call) ?? answer(call) });
  return { ...fake, state };
}
