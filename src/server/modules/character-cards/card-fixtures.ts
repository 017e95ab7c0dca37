// Character cards made in code for the tests (server and browser flows): a V2/V3 card object, a
// real decodable PNG (RGBA scanlines deflated with node:zlib, CRCs from node:zlib's crc32 so the
// reader under test is not checking itself), and a PNG card with the card in a tEXt chunk.
import zlib from 'node:zlib';

export interface FixtureEntry {
  keys: string[];
  content: string;
  name?: string;
}

export function cardObject(fields: {
  spec?: string;
  name?: string;
  description?: string;
  first_mes?: string;
  personality?: string;
  scenario?: string;
  system_prompt?: string;
  post_history_instructions?: string;
  entries?: FixtureEntry[];
}): Record<string, unknown> {
  const { spec = 'chara_card_v2', entries, ...data } = fields;
  return {
    spec,
    spec_version: spec === 'chara_card_v3' ? '3.0' : '2.0',
    data: {
      name: 'Captain Mirella',
      description: '',
      personality: '',
      scenario: '',
      first_mes: '',
      mes_example: '',
      creator_notes: '',
      system_prompt: '',
      post_history_instructions: '',
      alternate_greetings: [],
      tags: [],
      creator: 'test',
      character_version: '1',
      extensions: {},
      ...data,
      ...(entries
        ? {
            character_book: {
              name: 'Mirella lore',
              extensions: {},
              entries: entries.map((e, i) => ({ keys: e.keys, content: e.content, extensions: {}, enabled: true, insertion_order: i, ...(e.name ? { name: e.name } : {}) })),
            },
          }
        : {}),
    },
  };
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function chunk(type: string, data: Buffer, crcOverride?: number): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typeBytes = Buffer.from(type, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crcOverride ?? zlib.crc32(Buffer.concat([typeBytes, data])));
  return Buffer.concat([len, typeBytes, data, crc]);
}

/** A width x height RGBA image (a simple gradient), as PNG chunks: IHDR, IDAT (no IEND). */
export function imageChunks(width = 4, height = 4): Buffer[] {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 4);
    for (let x = 0; x < width; x++) row.set([(x * 60) & 255, (y * 60) & 255, 180, 255], 1 + x * 4);
    rows.push(row);
  }
  return [chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.concat(rows)))];
}

export function textChunkBytes(keyword: string, text: string): Buffer {
  return chunk('tEXt', Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]));
}

/** A PNG card: the image, then the card as base64 JSON in tEXt `keyword` (chara or ccv3). */
export function pngCard(card: unknown, keyword = 'chara', extra: Buffer[] = []): Buffer {
  const encoded = Buffer.from(JSON.stringify(card), 'utf8').toString('base64');
  return Buffer.concat([SIGNATURE, ...imageChunks(), textChunkBytes(keyword, encoded), ...extra, chunk('IEND', Buffer.alloc(0))]);
}

export function plainPng(): Buffer {
  return Buffer.concat([SIGNATURE, ...imageChunks(), chunk('IEND', Buffer.alloc(0))]);
}

export { SIGNATURE as PNG_SIGNATURE_BYTES };
