// The card parser and the PNG chunk reader on good and hostile inputs, without a server.
import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { CardError, CardTooLongError, checkJsonDepth, parseCard, toPreview } from './card-parse';
import { instructionsToSections, sectionsToInstructions } from './card-sections';
import { lorebookText } from './card-lorebook';
import { buildCardV2, cardPng } from './card-export';
import { limits } from '../../../shared/limits';
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
    expect(card).toMatchObject({ spec: 'chara_card_v2', name: 'Mirella', description: 'A sky pirate.', greeting: 'Ahoy, you!', image: null });
    expect(card.behaviorInstructions).toBe(
      'Personality:\nBold, loyal.\n\nScenario:\nOn the deck of the Gull.\n\nSystem prompt:\nYou are Mirella.\n\nPost-history instructions:\nStay in character.',
    );
    expect(card.book?.entries).toHaveLength(2);
    // One paragraph per entry with content (blank lines inside an entry folded), opened by its keys.
    expect(lorebookText(card.book)).toBe('gull: The Gull is an airship.\nShe has brass sails.');
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
    expect(lorebookText(fromJson.book)).toBe('k: Lore.');
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
    ['an object with neither a spec nor V1 fields', json({ title: 'X' }), 'it has neither a chara_card_v2 or chara_card_v3 spec nor the fields of a V1 card (name, description, first_mes...)'],
    ['a blank name', json(cardObject({ name: '   ' })), 'its name is blank'],
    ['a name of invisible characters only', json(cardObject({ name: '\u200B\u200D\u202E' })), 'its name is blank'],
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

  it('saves a name without bidirectional overrides, which could show it reversed', () => {
    expect(parseCard(json(cardObject({ name: 'Albert \u202Enietsnie' }))).name).toBe('Albert nietsnie');
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

describe('V1 cards (no spec, the fields at the top level)', () => {
  const v1 = { name: 'Old Tom', description: 'A ferryman.', personality: 'Gruff.', scenario: 'At the river.', first_mes: 'Fare, {{user}}?', mes_example: '<START>' };

  it('are read from JSON with the same mapping as V2', () => {
    expect(parseCard(json(v1))).toMatchObject({
      spec: 'chara_card_v1',
      name: 'Old Tom',
      description: 'A ferryman.',
      greeting: 'Fare, you?',
      behaviorInstructions: 'Personality:\nGruff.\n\nScenario:\nAt the river.',
      book: null,
      image: null,
    });
  });

  it('are read from a PNG "chara" chunk, and previewed as the V2 fields they are', () => {
    const card = parseCard(pngCard(v1));
    expect(card).toMatchObject({ spec: 'chara_card_v1', name: 'Old Tom', description: 'A ferryman.' });
    expect(card.image).not.toBeNull();
    expect(toPreview(card).spec).toBe('chara_card_v1');
  });
});

describe('placeholders', () => {
  it('{{char}}/<BOT> become the name and {{user}}/<USER> "you" ("your" for the possessive) in every text, in any case', () => {
    const card = parseCard(
      json(
        cardObject({
          name: 'Mirella',
          description: "{{char}} is {{user}}'s oldest friend.",
          first_mes: 'Hello {{User}}, I am {{CHAR}}.',
          personality: '<BOT> never lies to <user>.',
          scenario: '{{Char}} meets {{user}}.',
          system_prompt: 'You are {{char}}.',
          post_history_instructions: 'Stay {{char}}.',
          entries: [{ keys: ['{{char}} ship'], content: "{{char}}'s ship is fast." }],
        }),
      ),
    );
    expect(card.description).toBe('Mirella is your oldest friend.');
    expect(card.greeting).toBe('Hello you, I am Mirella.');
    expect(card.sections).toMatchObject({ personality: 'Mirella never lies to you.', scenario: 'Mirella meets you.', system_prompt: 'You are Mirella.', post_history_instructions: 'Stay Mirella.' });
    expect(card.behaviorInstructions).not.toMatch(/\{\{|<bot>|<user>/i);
    expect(lorebookText(card.book)).toBe("Mirella ship: Mirella's ship is fast.");
  });

  it('takes a name with "$" characters literally', () => {
    expect(parseCard(json(cardObject({ name: "$& $' $1", description: 'I am {{char}}.' }))).description).toBe("I am $& $' $1.");
  });
});

describe('lorebook passages', () => {
  it('one paragraph per enabled entry with content, opened by its keys (each once; regular expressions left out; the name when there are no keys)', () => {
    const book = parseCard(
      json({
        spec: 'chara_card_v2',
        data: {
          name: 'X',
          character_book: {
            entries: [
              { keys: ['Eldoria', 'capital', 'eldoria', '/eld(oria)?/i'], content: 'The city sits on a cliff above the Silver Sea.', enabled: true },
              { keys: [], name: 'The Old War', content: 'Fought for forty years.', enabled: true },
              { keys: ['hidden'], content: 'Disabled.', enabled: false },
              { keys: ['empty'], content: '  ', enabled: true },
              { keys: [], content: 'No keys, no name.', enabled: true },
            ],
          },
        },
      }),
    ).book;
    expect(lorebookText(book).split('\n\n')).toEqual([
      'Eldoria (capital): The city sits on a cliff above the Silver Sea.',
      'The Old War: Fought for forty years.',
      'No keys, no name.',
    ]);
  });

  it('keeps the keys short', () => {
    const keys = Array.from({ length: 100 }, (_, i) => `keyword-number-${i}`);
    const text = lorebookText(parseCard(json(cardObject({ entries: [{ keys, content: 'C.' }] }))).book);
    expect(text.length).toBeLessThanOrEqual(210);
    expect(text.startsWith('keyword-number-0 (keyword-number-1, keyword-number-2,')).toBe(true);
    expect(text.endsWith('): C.')).toBe(true);
  });
});

describe('a description longer than a personality description', () => {
  const max = limits.personalityDescriptionMax;
  const paragraph = (i: number) => `Paragraph ${i}. ${'The character remembers the harbour at dawn. '.repeat(20).trim()}`;
  const long = Array.from({ length: 12 }, (_, i) => paragraph(i)).join('\n\n'); // about 11 000 characters

  it('keeps whole paragraphs within the limit as the description and the rest opens the behaviour instructions', () => {
    const card = parseCard(json(cardObject({ name: 'Long', description: long, personality: 'Calm.' })));
    expect(card.description.length).toBeLessThanOrEqual(max);
    expect(card.description.length).toBeGreaterThan(max / 2);
    expect(card.description.endsWith('dawn.')).toBe(true);
    expect(card.sections.description_continued.startsWith('Paragraph ')).toBe(true);
    expect(`${card.description}\n\n${card.sections.description_continued}`).toBe(long);
    expect(card.behaviorInstructions.startsWith(`Description (continued):\n${card.sections.description_continued}\n\nPersonality:\nCalm.`)).toBe(true);
    // The export joins the two again.
    expect(buildCardV2({ name: 'Long', description: card.description, behaviorInstructions: card.behaviorInstructions, greeting: null, book: null }).data).toMatchObject({
      description: long,
      personality: 'Calm.',
      system_prompt: '',
    });
  });

  it('without paragraphs, is cut after a sentence', () => {
    const sentences = 'She sails at night. '.repeat(400).trim();
    const card = parseCard(json(cardObject({ description: sentences })));
    expect(card.description.length).toBeLessThanOrEqual(max);
    expect(card.description.endsWith('night.')).toBe(true);
    expect(card.sections.description_continued.startsWith('She sails')).toBe(true);
  });

  it('is refused as too long (not as "not a card") when even the behaviour instructions cannot hold the rest', () => {
    let err: unknown;
    try {
      parseCard(json(cardObject({ description: long, personality: 'P. '.repeat(5000) })));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CardTooLongError);
    expect((err as Error).message).toMatch(/^its description, personality, scenario and instructions are about \d+ characters together, more than a personality holds \(5000 in its description and 20000 in its behaviour instructions\)$/);
  });
});

describe('PNG cards in iTXt chunks, and pictures that are not PNG', () => {
  const itxt = (keyword: string, text: Buffer, compressed = false) =>
    chunk('iTXt', Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0, compressed ? 1 : 0, 0]), Buffer.from('en\0\0', 'latin1'), text]));
  const encoded = (card: unknown) => Buffer.from(Buffer.from(JSON.stringify(card), 'utf8').toString('base64'), 'latin1');
  const png = (...extra: Buffer[]) => Buffer.concat([PNG_SIGNATURE_BYTES, ...imageChunks(), ...extra, chunk('IEND', Buffer.alloc(0))]);

  it('reads the card from an uncompressed iTXt "chara" or "ccv3" chunk', () => {
    expect(parseCard(png(itxt('chara', encoded(cardObject({ name: 'Ita' })))))).toMatchObject({ spec: 'chara_card_v2', name: 'Ita' });
    expect(parseCard(png(itxt('ccv3', encoded(cardObject({ spec: 'chara_card_v3', name: 'Ivy' })))))).toMatchObject({ spec: 'chara_card_v3', name: 'Ivy' });
  });

  it('refuses a compressed iTXt card chunk saying so', () => {
    expect(reason(png(itxt('chara', zlib.deflateSync(encoded(cardObject({}))), true)))).toBe(
      'its "chara" card data is in a compressed iTXt chunk, which Kindred does not read (save the card uncompressed, or as JSON)',
    );
  });

  it('calls a JPEG, WebP or GIF picture (renamed .png) what it is, not "not UTF-8"', () => {
    expect(reason(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xc3, 0x28]))).toBe('it is a JPEG image, neither a PNG image nor a JSON card');
    expect(reason(Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.from([0xff, 0xfe])]))).toBe(
      'it is a WebP image, neither a PNG image nor a JSON card',
    );
    expect(reason(Buffer.from([0x00, 0xff, 0xfe, 0x80]))).toBe('it is neither a PNG image nor a JSON card');
  });
});

describe('behaviour sections', () => {
  it('round-trip through the labelled text; unlabelled text is the system prompt', () => {
    const sections = { description_continued: '', personality: 'Bold.', scenario: '', system_prompt: 'Be Mirella.\nAlways.', post_history_instructions: 'Stay.' };
    expect(instructionsToSections(sectionsToInstructions(sections))).toEqual(sections);
    expect(instructionsToSections('Speak softly.')).toEqual({ description_continued: '', personality: '', scenario: '', system_prompt: 'Speak softly.', post_history_instructions: '' });
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
