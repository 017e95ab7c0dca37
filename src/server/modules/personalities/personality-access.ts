// One place that answers "may this viewer see / own this personality", for every module that
// hangs data off a personality (sharing, documents, conversations). Not found and not visible
// look the same to the caller, so ids cannot be probed.
import type { Database } from '../../db/client';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { findVisible, type PersonalityRow } from './personalities.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export async function loadVisiblePersonality(db: Database, id: string, viewerId: string | null): Promise<PersonalityRow> {
  const row = isUuid(id) ? await findVisible(db, id, viewerId) : undefined;
  if (!row) throw new AppError('NOT_FOUND', messages.personality.notFound);
  return row;
}

/** Visible and owned by the viewer; a visible non-owner gets 403, anyone else 404. */
export async function loadOwnedPersonality(db: Database, id: string, viewerId: string): Promise<PersonalityRow> {
  const row = await loadVisiblePersonality(db, id, viewerId);
  if (row.userId !== viewerId) throw new AppError('FORBIDDEN', messages.personality.notOwner);
  return row;
}
