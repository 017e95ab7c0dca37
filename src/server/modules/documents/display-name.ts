// The name a document is listed under: the uploaded name (or an article's title) as text only.
// It is never used as a path (storage keys are generated; see storage.ts).
import { limits } from '../../../shared/limits';
import { normalizeExtractedText } from './text-normalize';

export function cleanDisplayName(raw: string | undefined, fallback = 'untitled'): string {
  // Browsers may send a full path; only the last component is the file's name.
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const clean = normalizeExtractedText(base).replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean);
  if (chars.length === 0) return fallback;
  if (chars.length <= limits.documentFileNameMax) return clean;
  // Too long: cut the middle, keeping the extension (it names the type).
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 10 ? Array.from(clean.slice(dot)) : [];
  return chars.slice(0, limits.documentFileNameMax - ext.length).join('') + ext.join('');
}
