// The address of a personality's avatar (a PNG card's picture, re-encoded by the server), or null
// when it has none and the initial letter is shown instead. The version parameter changes when
// the personality does, so a cached image is never stale for long.
import type { Personality } from '../../shared/schemas/personality';

export function personalityAvatarUrl(p: Pick<Personality, 'id' | 'hasAvatar' | 'updatedAt'>): string | null {
  if (!p.hasAvatar) return null;
  return `/api/personalities/${encodeURIComponent(p.id)}/avatar?v=${encodeURIComponent(p.updatedAt)}`;
}
