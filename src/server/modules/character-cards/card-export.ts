// A personality written back as a Character Card V2: the JSON file, and the PNG card (the stored
// avatar with the card as a base64 "chara" tEXt chunk before IEND). Behaviour instructions go
// back to personality / scenario / system_prompt / post_history_instructions by their labels.
import type { CardBook } from '../../../shared/schemas/character-card';
import { instructionsToSections } from './card-sections';
import type { CardExtras } from '../../../shared/schemas/character-card';
import { readPngChunks, textChunk, writePng } from './png-chunks';

export interface ExportSource {
  name: string;
  description: string | null;
  behaviorInstructions: string | null;
  greeting: string | null;
  /** The lorebook, only while its knowledge document still exists. */
  book: CardBook | null;
  /** The imported card's fields Kindred does not use, given back as they came. */
  extras?: CardExtras | null;
}

export function buildCardV2(src: ExportSource) {
  const sections = instructionsToSections(src.behaviorInstructions);
  const data: Record<string, unknown> = {
    name: src.name,
    // A long card description was split on import: its continuation is joined back on.
    description: [src.description ?? '', sections.description_continued].filter((part) => part !== '').join('\n\n'),
    personality: sections.personality,
    scenario: sections.scenario,
    first_mes: src.greeting ?? '',
    mes_example: '',
    creator_notes: '',
    system_prompt: sections.system_prompt,
    post_history_instructions: sections.post_history_instructions,
    alternate_greetings: [],
    tags: [],
    creator: '',
    character_version: '',
    extensions: {},
    ...src.extras,
  };
  if (src.book) data.character_book = { ...src.book, extensions: {}, entries: src.book.entries.map((e) => ({ ...e, extensions: {} })) };
  return { spec: 'chara_card_v2' as const, spec_version: '2.0', data };
}

export function cardJson(src: ExportSource): string {
  return `${JSON.stringify(buildCardV2(src), null, 2)}\n`;
}

/** The avatar (already rebuilt without text chunks) with the card embedded as tEXt "chara". */
export function cardPng(avatar: Buffer, src: ExportSource): Buffer {
  const chunks = readPngChunks(avatar).filter((c) => c.type !== 'tEXt' && c.type !== 'iTXt' && c.type !== 'zTXt');
  const encoded = Buffer.from(JSON.stringify(buildCardV2(src)), 'utf8').toString('base64');
  const iend = chunks.findIndex((c) => c.type === 'IEND');
  chunks.splice(iend, 0, textChunk('chara', encoded));
  return writePng(chunks);
}

/**
 * A download name from the personality's name, in whatever script it is written ("李白.json",
 * "Zoë_🌸.json"): spaces become "_", and nothing that could make it a path, break the header or
 * disguise the extension stays (separators, quotes, control and bidirectional characters).
 */
export function exportFileName(name: string, ext: 'json' | 'png'): string {
  const base = Array.from(
    name
      .normalize('NFC')
      // Control and format characters (RLO could show "gnp.json" as "nosj.png"), but the joiners
      // that hold emoji and Persian words together.
      .replace(/[\p{Cc}\p{Cf}]/gu, (c) => (c === '\u200c' || c === '\u200d' ? c : ''))
      .replace(/[\/\\:*?"'<>|%]+/g, '')
      .trim()
      .replace(/\s+/g, '_')
      .replace(/^[._]+/, ''),
  )
    .slice(0, 80)
    .join('');
  return `${base || 'character'}.${ext}`;
}

/** The name for clients that only read plain `filename`: letters, digits, "_" and "-" in ASCII. */
function asciiFileName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const base = fileName
    .slice(0, dot)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '')
    .replace(/^_+|_+$/g, '');
  return `${base || 'character'}${fileName.slice(dot)}`;
}

/**
 * Content-Disposition for a download named by exportFileName: an ASCII `filename` every client
 * understands and, when the name is more than that, `filename*` with it in UTF-8 (RFC 6266 and
 * 5987), which browsers prefer.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = asciiFileName(fileName);
  if (ascii === fileName) return `attachment; filename="${ascii}"`;
  // encodeURIComponent leaves ' ( ) * as they are; RFC 5987 wants them encoded.
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
