// The card fields Kindred does not use but its author wrote: example dialogue, alternate
// greetings, creator notes, tags, creator, version and tool extensions. Kept as they came (no
// placeholder filled in: they are not shown here) and written back on export, so a card imported
// from SillyTavern and exported again loses none of its author's work. Bounded: a field past its
// limit is left out rather than refusing the card.

import type { CardExtras } from '../../../shared/schemas/character-card';

const TEXT_MAX = 50_000;
const SHORT_MAX = 500;
const LIST_MAX = 100;
const EXTENSIONS_MAX_BYTES = 64 * 1024;

/** The extras of a card's fields (V2/V3 `data`, or a V1 card's top level); null when it has none. */
export function readExtras(data: Record<string, unknown>): CardExtras | null {
  const extras: CardExtras = {};
  const text = (key: 'mes_example' | 'creator_notes' | 'creator' | 'character_version', max: number) => {
    const v = data[key];
    if (typeof v === 'string' && v.trim() !== '' && v.length <= max) extras[key] = v;
  };
  text('mes_example', TEXT_MAX);
  text('creator_notes', TEXT_MAX);
  text('creator', SHORT_MAX);
  text('character_version', SHORT_MAX);
  const greetings = stringList(data.alternate_greetings, TEXT_MAX);
  if (greetings.length > 0) extras.alternate_greetings = greetings;
  const tags = stringList(data.tags, SHORT_MAX);
  if (tags.length > 0) extras.tags = tags;
  const ext = data.extensions;
  if (ext && typeof ext === 'object' && !Array.isArray(ext) && Object.keys(ext).length > 0 && JSON.stringify(ext).length <= EXTENSIONS_MAX_BYTES) {
    extras.extensions = ext as Record<string, unknown>;
  }
  return Object.keys(extras).length > 0 ? extras : null;
}

function stringList(v: unknown, max: number): string[] {
  if (!Array.isArray(v)) return [];
  return v.filter((s): s is string => typeof s === 'string' && s.trim() !== '' && s.length <= max).slice(0, LIST_MAX);
}
