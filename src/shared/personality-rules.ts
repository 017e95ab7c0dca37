// Pure rules about personalities, shared by the server (which enforces them) and the web (which
// shows them). No I/O here.
import type { SharingType, VoiceProvider } from './limits';

/** Spec: sharing_type falls back to public if is_public else private. */
export function effectiveSharingType(sharingType: string | null | undefined, isPublic: boolean): SharingType {
  if (sharingType === 'private' || sharingType === 'shared' || sharingType === 'public') return sharingType;
  return isPublic ? 'public' : 'private';
}

/** Spec: a missing provider means default; the legacy value coqui is shown as openai. */
export function effectiveVoiceProvider(provider: string | null | undefined): VoiceProvider {
  if (provider === 'openai' || provider === 'coqui') return 'openai';
  if (provider === 'elevenlabs') return 'elevenlabs';
  return 'default';
}

/** Spec: phonetic mode when the name contains "pronunciation" or "accent", or the setting is on. */
export function usesPhoneticMode(name: string, enabled: boolean | undefined): boolean {
  const n = name.toLowerCase();
  return Boolean(enabled) || n.includes('pronunciation') || n.includes('accent');
}

export interface Orderable {
  name: string;
  isPublic: boolean;
  sharingType: SharingType;
  displayOrder: number | null;
}

/** Spec ordering: public first by display_order (nulls last) then name; the others by name. */
export function compareForLibrary(a: Orderable, b: Orderable): number {
  const ap = a.sharingType === 'public' ? 0 : 1;
  const bp = b.sharingType === 'public' ? 0 : 1;
  if (ap !== bp) return ap - bp;
  if (ap === 0) {
    const ao = a.displayOrder ?? Number.POSITIVE_INFINITY;
    const bo = b.displayOrder ?? Number.POSITIVE_INFINITY;
    if (ao !== bo) return ao - bo;
  }
  return a.name.localeCompare(b.name);
}
