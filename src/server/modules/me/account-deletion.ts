// Deleting one's own account: better-auth's POST /api/auth/delete-user (auth.ts enables it), with
// the password always required, and the person's personalities removed first through the
// personalities' own delete. The database's foreign keys would remove those rows anyway, but not
// what lives outside it: stored documents and avatars, and cloned voices holding paid slots in the
// operator's ElevenLabs account (the delete's hooks remove those, or queue their removal). The rest
// goes with the user row: conversations, shares, sessions cascade; requests, reports and reviews
// they made keep their rows with no user (admin lists say "[Unknown User]" / "Unknown").
import { eq } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import type { Database } from '../../db/client';
import { personalities } from '../../db/schema/personalities';
import type { AppEnv } from '../../auth/session';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { bodyField } from '../../security/json-text-guard';
import type { PersonalityService } from '../personalities/personalities.service';

export const DELETE_ACCOUNT_PATH = '/api/auth/delete-user';

/** The user better-auth hands its beforeDelete hook. */
interface DeletedUser {
  id: string;
  email: string;
  name: string;
}

/**
 * better-auth's `user.deleteUser.beforeDelete`: every personality the person owns, deleted as its
 * owner would. A failure here stops the deletion before the user row goes (the person may retry;
 * what was removed stays removed).
 */
export function removeOwnedPersonalities(db: Database, service: Pick<PersonalityService, 'remove'>) {
  return async (user: DeletedUser): Promise<void> => {
    const owned = await db.select({ id: personalities.id }).from(personalities).where(eq(personalities.userId, user.id));
    const owner = { id: user.id, email: user.email, name: user.name };
    for (const { id } of owned) {
      try {
        await service.remove(owner, id);
      } catch (err) {
        // Deleted meanwhile (another tab): its hooks ran there.
        if (err instanceof AppError && err.status === 404) continue;
        throw err;
      }
    }
  };
}

/**
 * The password, always. Without one better-auth deletes the account of any session younger than a
 * day (its "fresh session" rule): a borrowed unlocked browser would be enough to lose everything.
 * Signed out, the library's own 401 answers.
 */
export function requirePasswordToDeleteAccount() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === 'POST' && c.get('viewer') && !(await bodyField(c, 'password'))) {
      throw new AppError('BAD_REQUEST', messages.auth.deletionPasswordRequired);
    }
    await next();
  });
}
