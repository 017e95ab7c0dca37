// The owner's sharing rules: the level (private, shared, public for admins only), the people it
// is shared with, and requests to make it public. Only the owner may do any of it: a visible
// non-owner gets 403, anyone else 404 (loadOwnedPersonality). No Hono here.
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import { AppError, isForeignKeyViolation, isUniqueViolation } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import type { SharingType } from '../../../shared/limits';
import { effectiveSharingType } from '../../../shared/personality-rules';
import type { PublicRequest, Share, SharingState } from '../../../shared/schemas/sharing';
import { isUuid, loadOwnedPersonality } from '../personalities/personality-access';
import * as repo from './sharing.repository';
import * as requests from './public-requests.repository';

/** Machine-readable reason on the 403 a non-admin gets when choosing public. */
export const ADMIN_APPROVAL_REQUIRED = 'ADMIN_APPROVAL_REQUIRED';

function toRequestDto(row: requests.OwnerRequestRow): PublicRequest {
  return {
    id: row.id,
    status: row.status as PublicRequest['status'],
    requestMessage: row.requestMessage,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

function toShareDto(row: repo.ShareRow): Share {
  return { id: row.id, userId: row.userId, email: row.email ?? messages.sharing.unknownEmail, createdAt: row.createdAt.toISOString() };
}

export function createSharingService(db: Database, clock: Clock) {
  return {
    async setSharingType(viewer: Viewer, isAdmin: () => Promise<boolean>, id: string, sharingType: SharingType): Promise<SharingState> {
      await loadOwnedPersonality(db, id, viewer.id);
      if (sharingType === 'public' && !(await isAdmin())) {
        throw new AppError('FORBIDDEN', messages.sharing.adminApprovalRequired, {
          details: { reason: ADMIN_APPROVAL_REQUIRED, hint: messages.sharing.adminApprovalHint },
        });
      }
      // The level and the withdrawal of a pending public request together (see withdrawPendingRequest).
      const row = await db.transaction(async (tx) => {
        const set = await repo.setSharingLevel(tx, id, viewer.id, sharingType, clock.now());
        if (set && sharingType !== 'public') await repo.withdrawPendingRequest(tx, id);
        return set;
      });
      if (!row) throw new AppError('NOT_FOUND', messages.personality.notFound);
      return { id: row.id, sharingType: effectiveSharingType(row.sharingType, row.isPublic), isPublic: row.isPublic };
    },

    async listShares(viewer: Viewer, id: string): Promise<Share[]> {
      await loadOwnedPersonality(db, id, viewer.id);
      return (await repo.listShares(db, id)).map(toShareDto);
    },

    /** Adds a person; a private personality becomes shared in the same transaction, a public one stays public. */
    async addShare(viewer: Viewer, id: string, email: string): Promise<{ share: Share; sharingType: SharingType }> {
      await loadOwnedPersonality(db, id, viewer.id);
      const target = await repo.findUserByEmail(db, email);
      if (!target) throw new AppError('NOT_FOUND', messages.sharing.userNotFound);
      if (target.id === viewer.id) throw new AppError('BAD_REQUEST', messages.sharing.cannotShareWithSelf);
      try {
        return await db.transaction(async (tx) => {
          const current = await repo.lockOwned(tx, id, viewer.id);
          if (!current) throw new AppError('NOT_FOUND', messages.personality.notFound);
          const now = clock.now();
          const inserted = await repo.insertShare(tx, {
            personalityId: id,
            sharedWithUserId: target.id,
            sharedByUserId: viewer.id,
            createdAt: now,
          });
          if (!inserted) throw new AppError('CONFLICT', messages.sharing.alreadyAdded);
          let level = effectiveSharingType(current.sharingType, current.isPublic);
          if (level === 'private') {
            await repo.setSharingLevel(tx, id, viewer.id, 'shared', now);
            level = 'shared';
          }
          const share = toShareDto({ id: inserted.id, userId: target.id, email: target.email, createdAt: inserted.createdAt });
          return { share, sharingType: level };
        });
      } catch (err) {
        // The account was deleted between the lookup and the insert.
        if (isForeignKeyViolation(err)) throw new AppError('NOT_FOUND', messages.sharing.userNotFound, { cause: err });
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', messages.sharing.alreadyAdded, { cause: err });
        throw err;
      }
    },

    async removeShare(viewer: Viewer, id: string, shareId: string): Promise<void> {
      await loadOwnedPersonality(db, id, viewer.id);
      const removed = isUuid(shareId) && (await repo.deleteShare(db, id, shareId));
      if (!removed) throw new AppError('NOT_FOUND', messages.sharing.shareNotFound);
    },

    /**
     * The recipient removes a personality shared with them from their library: anyone who knows
     * their e-mail can share with them, so they must be able to undo it themselves.
     */
    async leaveShare(viewer: Viewer, id: string): Promise<void> {
      if (!isUuid(id) || !(await repo.leaveShare(db, id, viewer.id))) throw new AppError('NOT_FOUND', messages.sharing.shareNotFound);
    },

    async latestPublicRequest(viewer: Viewer, id: string): Promise<PublicRequest | null> {
      await loadOwnedPersonality(db, id, viewer.id);
      const row = await requests.findLatestRequest(db, id);
      return row ? toRequestDto(row) : null;
    },

    async requestPublic(viewer: Viewer, id: string, message: string | null): Promise<PublicRequest> {
      const personality = await loadOwnedPersonality(db, id, viewer.id);
      if (effectiveSharingType(personality.sharingType, personality.isPublic) === 'public') {
        throw new AppError('CONFLICT', messages.sharing.alreadyPublic);
      }
      // No "is one pending?" read first: the partial unique index public_requests_one_pending
      // answers that, atomically, also for two requests sent at the same moment.
      try {
        const row = await requests.insertRequest(db, {
          personalityId: id,
          personalityName: personality.name,
          requestedByUserId: viewer.id,
          requestMessage: message,
          now: clock.now(),
        });
        return toRequestDto(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', messages.sharing.requestAlreadyPending, { cause: err });
        // Deleted between the ownership check and the insert.
        if (isForeignKeyViolation(err)) throw new AppError('NOT_FOUND', messages.personality.notFound, { cause: err });
        throw err;
      }
    },
  };
}

export type SharingService = ReturnType<typeof createSharingService>;
