// Character Card V2 / V3 parsing: a .json card, or a .png card carrying the card as base64 JSON in
// a tEXt chunk named "chara" (V2) or "ccv3" (V3). The file is recognised by its bytes, never its
// name. Everything is bounded: total size, PNG chunk lengths (png-chunks.ts), JSON nesting and
// text lengths. Card text is data: it is only ever stored and shown as text.
import { limits } from '../../../shared/limits';
import type { CardBook, CardBookEntry, CardPreview } from '../../../shared/schemas/character-card';
import { isPng, PngError, readPngChunks, readTextChunk, rebuildImage } from './png-chunks';

export const CARD_MAX_BYTES = limits.characterCardMaxBytes;
/** Deeper JSON than this is refused before it is parsed (a real card nests about 5 levels). */
export const CARD_MAX_JSON_DEPTH = 32;
/** Lorebook entries accepted in one card. */
export const CARD_MAX_BOOK_ENTRIES = 2000;
const GREETING_MAX = limits.personalityGreetingMax;

/** Why a file is not a card; the route answers 400 "This file is not a character card: {reason}". */
export class CardError extends Error {}

export interface ParsedCard {
  spec: 'chara_card_v2' | 'chara_card_v3';
  name: string;
  description: string;
  greeting: string;
  behaviorInstructions: string;
  sections: CardSections;
  book: CardBook | null;
  /** The card's picture, validated and rebuilt (PNG cards only). */
  image: Buffer | null;
}

export interface CardSections {
  personality: string;
  scenario: string;
  system_prompt: string;
  post_history_instructions: string;
}

/** The labels behaviour instructions are written with, in the order. */
export const SECTION_LABELS: [keyof CardSections, string][] = [
  ['personality', 'Personality'],
  ['scenario', 'Scenario'],
  ['system_prompt', 'System prompt'],
  ['post_history_instructions', 'Post-history instructions'],
];

export function parseCard(bytes: Uint8Array): ParsedCard {
  if (bytes.length > CARD_MAX_BYTES) throw new CardError('it is larger than 10 MB');
  if (bytes.length === 0) throw new CardError('it is empty');
  if (isPng(bytes)) return parsePngCard(bytes);
  const text = decodeUtf8(bytes, 'the file');
  if (!/^\s*\{/.test(text)) throw new CardError('it is neither a PNG image nor a JSON card');
  return fromJsonText(text, null);
}

function parsePngCard(bytes: Uint8Array): ParsedCard {
  let chunks;
  try {
    chunks = readPngChunks(bytes);
  } catch (err) {
    if (err instanceof PngError) throw new CardError(err.message);
    throw err;
  }
  let v2: string | undefined;
  let v3: string | undefined;
  for (const chunk of chunks) {
    if (chunk.type !== 'tEXt') continue;
    const t = readTextChunk(chunk.data);
    if (t?.keyword === 'chara') v2 ??= t.text;
    else if (t?.keyword.toLowerCase() === 'ccv3') v3 ??= t.text;
  }
  // A V3 card usually carries both; the V3 one is the richer (as SillyTavern reads it).
  const encoded = v3 ?? v2;
  if (encoded === undefined) throw new CardError('the PNG has no "chara" or "ccv3" text chunk');
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
  const spec = root.spec;
  if (spec !== 'chara_card_v2' && spec !== 'chara_card_v3') {
    throw new CardError(
      typeof spec === 'string' ? `its spec is "${spec.slice(0, 40)}", not chara_card_v2 or chara_card_v3` : 'it has no chara_card_v2 or chara_card_v3 spec',
    );
  }
  const data = root.data;
  if (!isObject(data)) throw new CardError('it has no "data" object');
  const name = field(data, 'name').trim();
  if (!name) throw new CardError('its name is blank');
  if (name.length > limits.personalityNameMax) throw new CardError(`its name is longer than ${limits.personalityNameMax} characters`);
  const description = field(data, 'description').trim();
  if (description.length > limits.personalityDescriptionMax) {
    throw new CardError(`its description is longer than ${limits.personalityDescriptionMax} characters`);
  }
  const greeting = field(data, 'first_mes').trim();
  if (greeting.length > GREETING_MAX) throw new CardError(`its first message is longer than ${GREETING_MAX} characters`);
  const sections: CardSections = {
    personality: field(data, 'personality').trim(),
    scenario: field(data, 'scenario').trim(),
    system_prompt: field(data, 'system_prompt').trim(),
    post_history_instructions: field(data, 'post_history_instructions').trim(),
  };
  const behaviorInstructions = sectionsToInstructions(sections);
  if (behaviorInstructions.length > limits.behaviorInstructionsMax) {
    throw new CardError(`its personality, scenario and instructions are longer than ${limits.behaviorInstructionsMax} characters together`);
  }
  return { spec, name, description, greeting, behaviorInstructions, sections, book: parseBook(data.character_book), image };
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

function parseBook(value: unknown): CardBook | null {
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
    const content = field(raw, 'content').trim();
    const keys = stringList(raw.keys, i);
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

/** The lorebook entries that become passages: enabled, with content. */
export function knowledgeEntries(book: CardBook | null): CardBookEntry[] {
  return (book?.entries ?? []).filter((e) => e.enabled && e.content.trim() !== '');
}

/**
 * The knowledge document's text: one paragraph per entry (blank lines inside an entry are
 * folded to single line breaks, so the chunker never splits an entry at a paragraph break and
 * the export can give each paragraph back as its entry).
 */
export function lorebookText(book: CardBook | null): string {
  return knowledgeEntries(book)
    .map((e) => e.content.replace(/\n\s*\n+/g, '\n').trim())
    .join('\n\n');
}

/** "Personality:\n...\n\nScenario:\n..." with only the sections that have text, in order. */
export function sectionsToInstructions(sections: CardSections): string {
  return SECTION_LABELS.filter(([key]) => sections[key] !== '')
    .map(([key, label]) => `${label}:\n${sections[key]}`)
    .join('\n\n');
}

/** The reverse of sectionsToInstructions; text before any label (or without labels) is the system prompt. */
export function instructionsToSections(text: string | null): CardSections {
  const out: CardSections = { personality: '', scenario: '', system_prompt: '', post_history_instructions: '' };
  if (!text?.trim()) return out;
  const labelOf = new Map(SECTION_LABELS.map(([key, label]) => [`${label}:`, key]));
  let current: keyof CardSections | null = null;
  const collected: Record<string, string[]> = {};
  const preamble: string[] = [];
  for (const line of text.split('\n')) {
    const key = labelOf.get(line.trim());
    if (key && collected[key] === undefined) {
      current = key;
      collected[key] = [];
      continue;
    }
    (current ? collected[current]! : preamble).push(line);
  }
  for (const [key] of SECTION_LABELS) out[key] = (collected[key] ?? []).join('\n').trim();
  const pre = preamble.join('\n').trim();
  if (pre) out.system_prompt = out.system_prompt ? `${pre}\n\n${out.system_prompt}` : pre;
  return out;
}

export function toPreview(card: ParsedCard): CardPreview {
  return {
    name: card.name,
    description: card.description,
    greeting: card.greeting,
    behaviorInstructions: card.behaviorInstructions,
    lorebookEntries: knowledgeEntries(card.book).length,
    hasImage: card.image !== null,
    spec: card.spec,
  };
}
