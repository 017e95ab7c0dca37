// Governance rules for admins: the public-request queue (approve, reject), reverting public
// personalities to private, and the order of public personalities in the library. Routes check
// the admin role before calling; no Hono here.
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { effectiveSharingType } from '../../../shared/personality-rules';
import type { AdminPersonality, AdminPublicRequest, AdminPublicRequestList, AdminSummary } from '../../../shared/schemas/admin';
import { isUuid } from '../personalities/personality-access';
import * as repo from './admin.repository';

/** Spec section 9: the "Recent Reviews" list shows 5. */
export const RECENT_REVIEWS_LIMIT = 5;
/** Pending requests are listed a page at a time ("Load more"); the heading and card show them all. */
export const PENDING_REQUESTS_PAGE = 50;

function toRequestDto(row: repo.AdminRequestRow): AdminPublicRequest {
  const deleted = row.personalityId === null || row.name === null;
  return {
    id: row.id,
    personalityId: deleted ? null : row.personalityId,
    personalityName: deleted ? messages.approval.deletedPersonality : row.name!,
    personalityDeleted: deleted,
    personalityNameAtRequest: row.nameSnapshot,
    description: deleted ? null : row.description,
    behaviorInstructions: deleted ? null : row.behaviorInstructions,
    requesterEmail: row.requesterEmail ?? messages.approval.unknownUser,
    requestMessage: row.requestMessage,
    status: row.status as AdminPublicRequest['status'],
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

function toPersonalityDto(row: repo.AdminPersonalityRow): AdminPersonality {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    creatorEmail: row.creatorEmail ?? messages.admin.unknownCreator,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    sharingType: effectiveSharingType(row.sharingType, row.isPublic),
    displayOrder: row.displayOrder,
    hasAvatar: Boolean(row.hasAvatar),
  };
}

const requestNotFound = () => new AppError('NOT_FOUND', messages.approval.requestNotFound);
const alreadyReviewed = () => new AppError('CONFLICT', messages.approval.alreadyReviewed);
const personalityGone = () => new AppError('CONFLICT', messages.approval.personalityGone);

export function createAdminService(db: Database, clock: Clock) {
  async function loadRequest(id: string): Promise<AdminPublicRequest> {
    const row = await repo.findRequest(db, id);
    if (!row) throw requestNotFound();
    return toRequestDto(row);
  }

  async function loadPersonality(id: string): Promise<AdminPersonality> {
    const row = await repo.findAdminPersonality(db, id);
    if (!row) throw new AppError('NOT_FOUND', messages.personality.notFound);
    return toPersonalityDto(row);
  }

  return {
    async summary(): Promise<AdminSummary> {
      const [publicCount, pendingCount] = await Promise.all([repo.countPublic(db), repo.countPending(db)]);
      return { publicCount, pendingCount };
    },

    /** A page of pending requests (the first, or the one after `before`), the true number pending, and the latest reviews. */
    async listRequests(before?: string): Promise<AdminPublicRequestList> {
      const [page, pendingTotal, recent] = await Promise.all([
        repo.listPendingRequests(db, { size: PENDING_REQUESTS_PAGE, before }),
        repo.countPending(db),
        repo.listRecentReviews(db, RECENT_REVIEWS_LIMIT),
      ]);
      return { pending: page.rows.map(toRequestDto), pendingTotal, nextCursor: page.nextCursor, recent: recent.map(toRequestDto) };
    },

    /**
     * One transaction: the personality row is locked (FOR UPDATE) before the request is touched,
     * the same order a delete takes (personality, then its requests via ON DELETE SET NULL), so
     * the two never deadlock. If the delete won, the row is gone and we refuse; if we won, the
     * delete waits and then removes the now-public personality. Nothing is ever re-created.
     */
    async approve(admin: Viewer, id: string): Promise<AdminPublicRequest> {
      if (!isUuid(id)) throw requestNotFound();
      await db.transaction(async (tx) => {
        const request = await repo.findRequestState(tx, id);
        if (!request) throw requestNotFound();
        if (request.status !== 'pending') throw alreadyReviewed();
        if (!request.personalityId) throw personalityGone();
        const locked = await repo.lockPersonality(tx, request.personalityId);
        if (!locked) throw personalityGone();
        const at = clock.now();
        const reviewed = await repo.markReviewed(tx, id, { status: 'approved', reviewerId: admin.id, at, personalityId: locked.id });
        if (!reviewed) {
          // Reviewed by someone else, or detached from its personality, since the first read.
          const now = await repo.findRequestState(tx, id);
          throw now?.status === 'pending' ? personalityGone() : alreadyReviewed();
        }
        await repo.makePublic(tx, locked.id, at);
      });
      return loadRequest(id);
    },

    /** Works whether or not the personality still exists. */
    async reject(admin: Viewer, id: string): Promise<AdminPublicRequest> {
      if (!isUuid(id)) throw requestNotFound();
      const reviewed = await repo.markReviewed(db, id, { status: 'rejected', reviewerId: admin.id, at: clock.now() });
      if (!reviewed) {
        const request = await repo.findRequestState(db, id);
        throw request ? alreadyReviewed() : requestNotFound();
      }
      return loadRequest(id);
    },

    async listPublicByUpdated(): Promise<AdminPersonality[]> {
      return (await repo.listPublicByUpdated(db)).map(toPersonalityDto);
    },

    async listPublicByOrder(): Promise<AdminPersonality[]> {
      return (await repo.listPublicByOrder(db)).map(toPersonalityDto);
    },

    async revertToPrivate(id: string): Promise<AdminPersonality> {
      if (!isUuid(id)) throw new AppError('NOT_FOUND', messages.personality.notFound);
      const reverted = await repo.revertToPrivate(db, id, clock.now());
      if (!reverted) {
        if (await repo.personalityExists(db, id)) throw new AppError('CONFLICT', messages.admin.notPublic);
        throw new AppError('NOT_FOUND', messages.personality.notFound);
      }
      return loadPersonality(id);
    },

    /** All or nothing: every id must be a public personality, else 400 and nothing is saved. */
    async saveOrder(updates: { id: string; displayOrder: number }[]): Promise<number> {
      const ids = updates.map((u) => u.id.toLowerCase());
      if (new Set(ids).size !== ids.length) throw new AppError('BAD_REQUEST', messages.admin.orderDuplicateIds);
      await db.transaction(async (tx) => {
        const found = new Set(await repo.lockPublic(tx, ids));
        const missing = ids.filter((id) => !found.has(id));
        if (missing.length > 0) throw new AppError('BAD_REQUEST', messages.admin.orderNotPublic, { details: { ids: missing } });
        await repo.saveOrder(tx, updates.map((u, i) => ({ id: ids[i]!, displayOrder: u.displayOrder })));
      });
      return updates.length;
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
