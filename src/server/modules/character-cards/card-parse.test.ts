// The card parser and the PNG chunk reader on good and hostile inputs, without a server.
import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { CardError, checkJsonDepth, instructionsToSections, lorebookText, parseCard, sectionsToInstructions } from './card-parse';
import { buildCardV2, cardPng } from './card-export';
import { readPngChunks, readTextChunk } from './png-chunks';
import { cardObject, chunk, imageChunks, PNG_SIGNATURE_BYTES, plainPng, pngCard, textChunkBytes } from './card-fixtures';

const json = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8');
const reason = (bytes: Uint8Array) => {
  try {
    parseCard(bytes);
  } catch (err) {
    if (err instanceof CardError) return err.message;
    throw err;
  }
  throw new Error('parsed');
};

describe('parseCard', () => {
  it('maps a V2 JSON card: name, description, first_mes, labelled behaviour sections in order, lorebook', () => {
    const card = parseCard(
      json(
        cardObject({
          name: '  Mirella ',
          description: 'A sky pirate.',
          first_mes: 'Ahoy, {{user}}!',
          scenario: 'On the deck of the Gull.',
          personality: 'Bold, loyal.',
          post_history_instructions: 'Stay in character.',
          system_prompt: 'You are Mirella.',
          entries: [
            { keys: ['gull'], content: 'The Gull is an airship.\n\nShe has brass sails.' },
            { keys: ['sky'], content: '' },
          ],
        }),
      ),
    );
    expect(card).toMatchObject({ spec: 'chara_card_v2', name: 'Mirella', description: 'A sky pirate.', greeting: 'Ahoy, {{user}}!', image: null });
    expect(card.behaviorInstructions).toBe(
      'Personality:\nBold, loyal.\n\nScenario:\nOn the deck of the Gull.\n\nSystem prompt:\nYou are Mirella.\n\nPost-history instructions:\nStay in character.',
    );
    expect(card.book?.entries).toHaveLength(2);
    // One paragraph per entry with content (blank lines inside an entry folded).
    expect(lorebookText(card.book)).toBe('The Gull is an airship.\nShe has brass sails.');
  });

  it('reads a PNG card from its "chara" chunk and a V3 card from "ccv3" (preferred when both exist)', () => {
    const v2 = parseCard(pngCard(cardObject({ name: 'Two' })));
    expect(v2.spec).toBe('chara_card_v2');
    expect(v2.name).toBe('Two');
    expect(v2.image).not.toBeNull();
    const both = pngCard(cardObject({ name: 'Old' }), 'chara', [
      textChunkBytes('ccv3', Buffer.from(JSON.stringify(cardObject({ spec: 'chara_card_v3', name: 'New' }))).toString('base64')),
    ]);
    expect(parseCard(both)).toMatchObject({ spec: 'chara_card_v3', name: 'New' });
  });

  it('reads a V3 card as JSON, and as a PNG carrying only a "ccv3" chunk, with the same mapping', () => {
    const v3 = cardObject({ spec: 'chara_card_v3', name: 'Three', description: 'D', first_mes: 'Hi', personality: 'Calm.', entries: [{ keys: ['k'], content: 'Lore.' }] });
    const fromJson = parseCard(json(v3));
    expect(fromJson).toMatchObject({ spec: 'chara_card_v3', name: 'Three', description: 'D', greeting: 'Hi', behaviorInstructions: 'Personality:\nCalm.', image: null });
    expect(lorebookText(fromJson.book)).toBe('Lore.');
    const fromPng = parseCard(pngCard(v3, 'ccv3'));
    expect(fromPng).toMatchObject({ spec: 'chara_card_v3', name: 'Three', greeting: 'Hi' });
    expect(fromPng.image).not.toBeNull();
  });

  it('keeps card text as data, byte for byte (HTML and scripts are not touched here; the UI shows text)', () => {
    const script = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const card = parseCard(json(cardObject({ name: `Eve ${script}`, description: script, first_mes: script })));
    expect(card.name).toBe(`Eve ${script}`);
    expect(card.description).toBe(script);
    expect(card.greeting).toBe(script);
  });

  it('rebuilds the image from its image chunks only: no text chunk of the upload survives', () => {
    const card = parseCard(pngCard(cardObject({ name: 'Img' }), 'chara', [textChunkBytes('Comment', 'tracking')]));
    const types = readPngChunks(card.image!).map((c) => c.type);
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
  });

  it.each([
    ['broken JSON', Buffer.from('{"spec": "chara_card_v2", "data": {'), 'it is not valid JSON'],
    ['a wrong spec', json({ spec: 'chara_card_v1', data: { name: 'X' } }), 'its spec is "chara_card_v1", not chara_card_v2 or chara_card_v3'],
    ['no spec (a V1 card)', json({ name: 'X', description: '' }), 'it has no chara_card_v2 or chara_card_v3 spec'],
    ['a blank name', json(cardObject({ name: '   ' })), 'its name is blank'],
    ['a name that is not text', json({ spec: 'chara_card_v2', data: { name: { toString: 1 } } }), 'its "name" is not text'],
    ['no data object', json({ spec: 'chara_card_v2', data: [] }), 'it has no "data" object'],
    ['a JSON array', Buffer.from('[1,2]'), 'it is neither a PNG image nor a JSON card'],
    ['an empty file', Buffer.alloc(0), 'it is empty'],
    ['non-UTF-8 bytes', Buffer.concat([Buffer.from('{"spec":"chara_card_v2","data":{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]), 'the file is not UTF-8 text'],
    ['a PNG without "chara"', plainPng(), 'the PNG has no "chara" or "ccv3" text chunk'],
    ['lorebook entries that are not a list', json({ spec: 'chara_card_v2', data: { name: 'X', character_book: { entries: {} } } }), 'its character_book has no entries list'],
  ])('refuses %s', (_label, bytes, expected) => {
    expect(reason(bytes)).toBe(expected);
  });

  it('refuses non-UTF-8 card data inside a PNG', () => {
    const bad = Buffer.concat([Buffer.from('{"spec":"chara_card_v2","data":{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}}')]);
    const png = Buffer.concat([PNG_SIGNATURE_BYTES, ...imageChunks(), textChunkBytes('chara', bad.toString('base64')), chunk('IEND', Buffer.alloc(0))]);
    expect(reason(png)).toBe('the card data is not UTF-8 text');
  });

  it('refuses JSON nested deeper than 32 levels before parsing it (100 000 levels does not blow the stack)', () => {
    const deep = `{"spec":"chara_card_v2","data":{"name":"X","extensions":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    expect(reason(Buffer.from(deep))).toBe('its JSON is nested more than 32 levels deep');
    // Brackets inside strings are text, not nesting.
    expect(() => checkJsonDepth(`{"a":"${'['.repeat(1000)}"}`, 32)).not.toThrow();
  });

  it('refuses a file over 10 MB before looking at it', () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    expect(reason(big)).toBe('it is larger than 10 MB');
  });

  describe('hostile PNGs', () => {
    const card = Buffer.from(JSON.stringify(cardObject({ name: 'X' }))).toString('base64');
    const head = () => [PNG_SIGNATURE_BYTES, ...imageChunks()];

    it('a chunk whose declared length is larger than the file (0x7fffff00) is refused without allocating it', () => {
      const lying = Buffer.alloc(12);
      lying.writeUInt32BE(0x7fffff00, 0);
      lying.write('tEXt', 4, 'latin1');
      const png = Buffer.concat([...head(), lying]);
      expect(reason(png)).toBe('a PNG chunk declares a length larger than the file');
    });

    it('a length past 2^31 (0xffffffff) is refused', () => {
      const lying = Buffer.alloc(16);
      lying.writeUInt32BE(0xffffffff, 0);
      lying.write('tEXt', 4, 'latin1');
      expect(reason(Buffer.concat([...head(), lying]))).toBe('a PNG chunk declares a length larger than the file');
    });

    it('a length that lies by a little (one byte past the end) is refused', () => {
      const text = textChunkBytes('chara', card);
      text.writeUInt32BE(text.readUInt32BE(0) + 1, 0);
      expect(reason(Buffer.concat([...head(), text]))).toBe('a PNG chunk declares a length larger than the file');
    });

    it('a file that stops before IEND is refused', () => {
      expect(reason(Buffer.concat([...head(), textChunkBytes('chara', card)]))).toBe('the PNG ends before its IEND chunk');
    });

    it('a damaged chunk (wrong CRC) is refused', () => {
      const png = Buffer.concat([...head(), chunk('tEXt', Buffer.from(`chara\0${card}`, 'latin1'), 1234), chunk('IEND', Buffer.alloc(0))]);
      expect(reason(png)).toBe("the PNG's tEXt chunk is damaged (checksum mismatch)");
    });

    it('anything after IEND is ignored', () => {
      const png = Buffer.concat([pngCard(cardObject({ name: 'After' })), Buffer.from('garbage'.repeat(100))]);
      expect(parseCard(png).name).toBe('After');
    });

    it('card data that is not base64 is refused', () => {
      const png = Buffer.concat([...head(), textChunkBytes('chara', '<<not base64>>'), chunk('IEND', Buffer.alloc(0))]);
      expect(reason(png)).toBe('the card data in the PNG is not base64');
    });

    it('an image whose pixel data does not match its header is refused', () => {
      const ihdr = imageChunks(4, 4)[0]!;
      const idat = chunk('IDAT', zlib.deflateSync(Buffer.alloc(10)));
      const png = Buffer.concat([PNG_SIGNATURE_BYTES, ihdr, idat, textChunkBytes('chara', card), chunk('IEND', Buffer.alloc(0))]);
      expect(reason(png)).toBe('the image data does not match its size');
    });

    it('a decompression bomb (header says 64x64, data inflates to 50 MB) is refused, bounded', () => {
      const ihdr = Buffer.alloc(13);
      ihdr.writeUInt32BE(64, 0);
      ihdr.writeUInt32BE(64, 4);
      ihdr[8] = 8;
      ihdr[9] = 6;
      const bomb = chunk('IDAT', zlib.deflateSync(Buffer.alloc(50 * 1024 * 1024)));
      const png = Buffer.concat([PNG_SIGNATURE_BYTES, chunk('IHDR', ihdr), bomb, textChunkBytes('chara', card), chunk('IEND', Buffer.alloc(0))]);
      expect(reason(png)).toBe('the image data is damaged');
    });

    it('a header with impossible dimensions is refused', () => {
      const ihdr = Buffer.alloc(13);
      ihdr.writeUInt32BE(100_000, 0);
      ihdr.writeUInt32BE(1, 4);
      ihdr[8] = 8;
      ihdr[9] = 6;
      const png = Buffer.concat([PNG_SIGNATURE_BYTES, chunk('IHDR', ihdr), imageChunks()[1]!, textChunkBytes('chara', card), chunk('IEND', Buffer.alloc(0))]);
      expect(reason(png)).toBe('the image is larger than 4096x4096 pixels');
    });
  });
});

describe('behaviour sections', () => {
  it('round-trip through the labelled text; unlabelled text is the system prompt', () => {
    const sections = { personality: 'Bold.', scenario: '', system_prompt: 'Be Mirella.\nAlways.', post_history_instructions: 'Stay.' };
    expect(instructionsToSections(sectionsToInstructions(sections))).toEqual(sections);
    expect(instructionsToSections('Speak softly.')).toEqual({ personality: '', scenario: '', system_prompt: 'Speak softly.', post_history_instructions: '' });
  });
});

describe('export', () => {
  it('writes the card into the avatar as a base64 "chara" tEXt chunk before IEND, with valid CRCs', () => {
    const avatar = parseCard(pngCard(cardObject({ name: 'Src' }))).image!;
    const out = cardPng(avatar, { name: 'Out', description: 'd', behaviorInstructions: null, greeting: 'hi', book: null });
    const chunks = readPngChunks(out); // verifies every CRC
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'tEXt', 'IEND']);
    const text = readTextChunk(chunks[2]!.data)!;
    expect(text.keyword).toBe('chara');
    expect(JSON.parse(Buffer.from(text.text, 'base64').toString('utf8'))).toEqual(buildCardV2({ name: 'Out', description: 'd', behaviorInstructions: null, greeting: 'hi', book: null }));
    expect(parseCard(out)).toMatchObject({ name: 'Out', description: 'd', greeting: 'hi' });
  });
});
