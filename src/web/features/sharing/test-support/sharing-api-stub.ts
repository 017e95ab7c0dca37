// Test support: the owner's sharing routes answering in the API's real JSON shapes, layered on
// the app's fake API (GET /api/me and friends) through its override hook. Stateful, so a test
// can add a person and then see them listed.
import type { SharingType } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import type { PublicRequest, Share } from '../../../../shared/schemas/sharing';
import { fakeApi, type FakeAnswer, type FakeCall, type FakeUser } from '../../../test-support/fake-api';

export interface SharingStubOptions {
  user: FakeUser;
  isAdmin?: boolean;
  personalityId: string;
  level?: SharingType;
  shares?: Share[];
  latestRequest?: PublicRequest | null;
  /** Registered accounts a share can be added for: e-mail -> user id. */
  accounts?: Record<string, string>;
  /** Replace one answer (e.g. a failure); return undefined to keep the stub's. */
  override?: (call: FakeCall) => FakeAnswer | undefined;
}

const error = (status: number, code: string, message: string): FakeAnswer => ({ status, body: { error: { code, message } } });
const stamp = '2026-01-02T03:04:05.000Z';

export function stubSharingApi(options: SharingStubOptions) {
  const state = {
    level: options.level ?? 'private',
    shares: [...(options.shares ?? [])],
    latest: options.latestRequest ?? null,
  };
  const accounts = options.accounts ?? {};
  const base = `/api/personalities/${options.personalityId}`;
  let seq = 0;

  const answer = (call: FakeCall): FakeAnswer | undefined => {
    const { method, path } = call;
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (method === 'PUT' && path === `${base}/sharing`) {
      const next = body.sharingType as SharingType;
      if (next === 'public' && !options.isAdmin) return error(403, 'FORBIDDEN', messages.sharing.adminApprovalRequired);
      state.level = next;
      // The server withdraws a pending public request when the owner chooses another level.
      if (next !== 'public' && state.latest?.status === 'pending') state.latest = null;
      return { status: 200, body: { personality: { id: options.personalityId, sharingType: next, isPublic: next === 'public' } } };
    }
    if (method === 'GET' && path === `${base}/shares`) return { status: 200, body: { shares: state.shares } };
    if (method === 'POST' && path === `${base}/shares`) {
      const email = String(body.email ?? '').trim();
      const userId = accounts[email.toLowerCase()];
      if (!userId) return error(404, 'NOT_FOUND', messages.sharing.userNotFound);
      if (state.shares.some((s) => s.userId === userId)) return error(409, 'CONFLICT', messages.sharing.alreadyAdded);
      const share: Share = { id: `share-${++seq}`, userId, email, createdAt: stamp };
      state.shares.push(share);
      if (state.level === 'private') state.level = 'shared';
      return { status: 201, body: { share, sharingType: state.level } };
    }
    const removeId = path.startsWith(`${base}/shares/`) ? path.slice(`${base}/shares/`.length) : null;
    if (method === 'DELETE' && removeId) {
      const index = state.shares.findIndex((s) => s.id === removeId);
      if (index < 0) return error(404, 'NOT_FOUND', messages.sharing.shareNotFound);
      state.shares.splice(index, 1);
      return { status: 200, body: { ok: true } };
    }
    if (method === 'GET' && path === `${base}/public-request`) return { status: 200, body: { request: state.latest } };
    if (method === 'POST' && path === `${base}/public-requests`) {
      if (state.latest?.status === 'pending') return error(409, 'CONFLICT', messages.sharing.requestAlreadyPending);
      const raw = typeof body.message === 'string' ? body.message.trim() : '';
      state.latest = { id: `request-${++seq}`, status: 'pending', requestMessage: raw || null, createdAt: stamp, reviewedAt: null };
      return { status: 201, body: { request: state.latest } };
    }
    return undefined;
  };

  const fake = fakeApi({
    user: options.user,
    isAdmin: options.isAdmin ?? false,
    override: (call) => options.override?.(call) ?? answer(call),
  });
  return { ...fake, state, base };
}
