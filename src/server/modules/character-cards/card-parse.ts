// Character Card V1 / V2 / V3 parsing: a .json card, or a .png card carrying the card as base64
// JSON in a tEXt or iTXt chunk named "chara" (V1/V2) or "ccv3" (V3). The file is recognised by its
// bytes, never its name. Everything is bounded: total size, PNG chunk lengths (png-chunks.ts),
// JSON nesting and text lengths. Card text is data: it is only ever stored and shown as text.
import { limits } from '../../../shared/limits';
import type { CardBook, CardBookEntry, CardExtras, CardPreview } from '../../../shared/schemas/character-card';
import { isPng, PngError, readITextChunk, readPngChunks, readTextChunk, rebuildImage, type PngChunk } from './png-chunks';
import { fillPlaceholders } from './card-placeholders';
import { splitDescription } from './card-description';
import { knowledgeEntries } from './card-lorebook';
import { sectionsToInstructions, type CardSections } from './card-sections';
import { readExtras } from './card-extras';
import { cleanName, isBlank } from '../../../shared/text/visible';

export const CARD_MAX_BYTES = limits.characterCardMaxBytes;
/** Deeper JSON than this is refused before it is parsed (a real card nests about 5 levels). */
export const CARD_MAX_JSON_DEPTH = 32;
/** Lorebook entries accepted in one card. */
export const CARD_MAX_BOOK_ENTRIES = 2000;
const GREETING_MAX = limits.personalityGreetingMax;

/** Why a file is not a card; the route answers 400 "This file is not a character card: {reason}". */
export class CardError extends Error {}

/** A real card with more text than a personality can hold; the route answers 400 "This character card is too long to import: {reason}". */
export class CardTooLongError extends CardError {}

export interface ParsedCard {
  spec: 'chara_card_v1' | 'chara_card_v2' | 'chara_card_v3';
  name: string;
  /** At most the description limit; a longer card description goes on in sections.description_continued. */
  description: string;
  greeting: string;
  behaviorInstructions: string;
  sections: CardSections;
  book: CardBook | null;
  /** The card's picture, validated and rebuilt (PNG cards only). */
  image: Buffer | null;
  /** Fields Kindred does not use, kept for export. */
  extras: CardExtras | null;
}

export function parseCard(bytes: Uint8Array): ParsedCard {
  if (bytes.length > CARD_MAX_BYTES) throw new CardError('it is larger than 10 MB');
  if (bytes.length === 0) throw new CardError('it is empty');
  if (isPng(bytes)) return parsePngCard(bytes);
  // Judged on the first bytes, so a JPEG or WebP picture renamed .png is not called "not UTF-8".
  if (!looksLikeJson(bytes)) throw new CardError(`${otherImageKind(bytes) ?? 'it is'} neither a PNG image nor a JSON card`);
  return fromJsonText(decodeUtf8(bytes, 'the file'), null);
}

/** The first byte past an optional UTF-8 BOM and white space is "{". */
function looksLikeJson(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x7b;
}

/** "it is a JPEG image," for the pictures people most often mistake for a PNG card. */
function otherImageKind(bytes: Uint8Array): string | null {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'it is a JPEG image,';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'it is a WebP image,';
  if (ascii(0, 4) === 'GIF8') return 'it is a GIF image,';
  return null;
}

function parsePngCard(bytes: Uint8Array): ParsedCard {
  let chunks;
  try {
    chunks = readPngChunks(bytes);
  } catch (err) {
    if (err instanceof PngError) throw new CardError(err.message);
    throw err;
  }
  const v2 = cardChunk(chunks, 'chara');
  const v3 = cardChunk(chunks, 'ccv3');
  // A V3 card usually carries both; the V3 one is the richer (as SillyTavern reads it).
  const found = v3 ?? v2;
  if (found === undefined) throw new CardError('the PNG has no "chara" or "ccv3" text chunk');
  if (found.compressed) throw new CardError(`its "${found.keyword}" card data is in a compressed iTXt chunk, which Kindred does not read (save the card uncompressed, or as JSON)`);
  const encoded = found.text;
  const compact = encoded.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw new CardError('the card data in the PNG is not base64');
  const json = decodeUtf8(Buffer.from(compact, 'base64'), 'the card data');
  let image: Buffer;
  try {
    image = rebuildImage(chunks).png;
  } catch (err) {
    if (err instanceof PngError) throw new CardError(err.message);
    throw err;
  }
  return fromJsonText(json, image);
}

/** The first tEXt or iTXt chunk with this keyword (any case: card tools write both "chara" and "Chara"). */
function cardChunk(chunks: PngChunk[], keyword: string): { keyword: string; compressed: boolean; text: string } | undefined {
  for (const chunk of chunks) {
    const t = chunk.type === 'tEXt' ? readTextChunk(chunk.data) : chunk.type === 'iTXt' ? readITextChunk(chunk.data) : null;
    if (t && t.keyword.toLowerCase() === keyword) return { compressed: false, ...t };
  }
  return undefined;
}

function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CardError(`${what} is not UTF-8 text`);
  }
}

/** Refuses JSON nested deeper than `max` by scanning it (strings skipped) before JSON.parse. */
export function checkJsonDepth(text: string, max: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) throw new CardError(`its JSON is nested more than ${max} levels deep`);
    } else if (c === 125 || c === 93) depth--;
  }
}

function fromJsonText(text: string, image: Buffer | null): ParsedCard {
  checkJsonDepth(text, CARD_MAX_JSON_DEPTH);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    throw new CardError('it is not valid JSON');
  }
  if (!isObject(root)) throw new CardError('its JSON is not an object');
  const { spec, data } = cardData(root);
  // Saved like a typed name: no bidi overrides (a reversed, spoofed name), and blank means nothing shows.
  const name = cleanName(field(data, 'name'));
  if (isBlank(name)) throw new CardError('its name is blank');
  if (name.length > limits.personalityNameMax) throw new CardTooLongError(`its name is longer than ${limits.personalityNameMax} characters`);
  // {{char}}, {{user}} and friends are filled in once, here, in every text (card-placeholders.ts).
  const cardText = (key: string) => fillPlaceholders(field(data, key), name).trim();
  const greeting = cardText('first_mes');
  if (greeting.length > GREETING_MAX) throw new CardTooLongError(`its first message is longer than ${GREETING_MAX} characters`);
  const { kept: description, rest } = splitDescription(cardText('description'), limits.personalityDescriptionMax);
  const sections: CardSections = {
    description_continued: rest,
    personality: cardText('personality'),
    scenario: cardText('scenario'),
    system_prompt: cardText('system_prompt'),
    post_history_instructions: cardText('post_history_instructions'),
  };
  const behaviorInstructions = sectionsToInstructions(sections);
  if (behaviorInstructions.length > limits.behaviorInstructionsMax) throw new CardTooLongError(tooLongReason(description, behaviorInstructions, rest !== ''));
  return { spec, name, description, greeting, behaviorInstructions, sections, book: parseBook(data.character_book, name), image, extras: readExtras(data) };
}

/**
 * The card's fields and its version. V2 and V3 keep them in "data"; a V1 card (no "spec") keeps the
 * same fields (name, description, personality, scenario, first_mes, mes_example) at the top level.
 */
function cardData(root: Record<string, unknown>): { spec: ParsedCard['spec']; data: Record<string, unknown> } {
  const spec = root.spec;
  if (spec === 'chara_card_v2' || spec === 'chara_card_v3') {
    if (!isObject(root.data)) throw new CardError('it has no "data" object');
    return { spec, data: root.data };
  }
  if (spec !== undefined) {
    throw new CardError(typeof spec === 'string' ? `its spec is "${spec.slice(0, 40)}", not chara_card_v2 or chara_card_v3` : 'its spec is not text');
  }
  if (!V1_FIELDS.some((key) => key in root)) {
    throw new CardError('it has neither a chara_card_v2 or chara_card_v3 spec nor the fields of a V1 card (name, description, first_mes...)');
  }
  return { spec: 'chara_card_v1', data: root };
}

const V1_FIELDS = ['name', 'description', 'personality', 'scenario', 'first_mes', 'mes_example'];

/** Why the definition cannot fit, in the limits a person can act on. */
function tooLongReason(description: string, instructions: string, descriptionCarried: boolean): string {
  const max = limits.behaviorInstructionsMax;
  if (!descriptionCarried) {
    return `its personality, scenario and instructions are ${instructions.length} characters together, more than the ${max} a personality's behaviour instructions hold`;
  }
  const total = description.length + instructions.length;
  return `its description, personality, scenario and instructions are about ${total} characters together, more than a personality holds (${limits.personalityDescriptionMax} in its description and ${max} in its behaviour instructions)`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A text field: missing or null is empty, anything but a string is refused. NULs are dropped (PostgreSQL cannot store them). */
function field(obj: Record<string, unknown>, key: string): string {
  const v = obj[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new CardError(`its "${key}" is not text`);
  return clean(v);
}

function clean(s: string): string {
  return s.replace(/\u0000/g, '').replace(/\r\n?/g, '\n');
}

function parseBook(value: unknown, name: string): CardBook | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw new CardError('its character_book is not an object');
  const entries = value.entries;
  if (!Array.isArray(entries)) throw new CardError('its character_book has no entries list');
  if (entries.length > CARD_MAX_BOOK_ENTRIES) throw new CardError(`its character_book has more than ${CARD_MAX_BOOK_ENTRIES} entries`);
  const book: CardBook = { entries: [] };
  if (typeof value.name === 'string') book.name = clean(value.name);
  if (typeof value.description === 'string') book.description = clean(value.description);
  if (typeof value.scan_depth === 'number') book.scan_depth = value.scan_depth;
  if (typeof value.token_budget === 'number') book.token_budget = value.token_budget;
  if (typeof value.recursive_scanning === 'boolean') book.recursive_scanning = value.recursive_scanning;
  entries.forEach((raw, i) => {
    if (!isObject(raw)) throw new CardError(`lorebook entry ${i + 1} is not an object`);
    const content = fillPlaceholders(field(raw, 'content'), name).trim();
    const keys = stringList(raw.keys, i).map((k) => fillPlaceholders(k, name));
    const entry: CardBookEntry = {
      keys,
      content,
      enabled: raw.enabled !== false,
      insertion_order: typeof raw.insertion_order === 'number' && Number.isFinite(raw.insertion_order) ? raw.insertion_order : i,
    };
    if (typeof raw.name === 'string') entry.name = clean(raw.name);
    if (typeof raw.comment === 'string') entry.comment = clean(raw.comment);
    if (typeof raw.case_sensitive === 'boolean') entry.case_sensitive = raw.case_sensitive;
    if (typeof raw.priority === 'number' && Number.isFinite(raw.priority)) entry.priority = raw.priority;
    if (typeof raw.id === 'number' && Number.isFinite(raw.id)) entry.id = raw.id;
    if (typeof raw.selective === 'boolean') entry.selective = raw.selective;
    if (raw.secondary_keys !== undefined) entry.secondary_keys = stringList(raw.secondary_keys, i);
    if (typeof raw.constant === 'boolean') entry.constant = raw.constant;
    if (raw.position === 'before_char' || raw.position === 'after_char') entry.position = raw.position;
    book.entries.push(entry);
  });
  return book;
}

function stringList(v: unknown, i: number): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((k) => typeof k === 'string')) throw new CardError(`lorebook entry ${i + 1} has keys that are not text`);
  return (v as string[]).map(clean).slice(0, 200);
}

export function toPreview(card: ParsedCard): CardPreview {
  return {
    name: card.name,
    description: card.description,
    greeting: card.greeting,
    behaviorInstructions: card.behaviorInstructions,
    lorebookEntries: knowledgeEntries(card.book).length,
    hasImage: card.image !== null,
    descriptionContinued: card.sections.description_continued !== '',
    spec: card.spec,
  };
}
