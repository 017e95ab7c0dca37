// Character card import, preview, export and avatar through real HTTP: the mapping, the greeting in
// chat, the lorebook as a cited knowledge document, who may do what, bad files, all-or-nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { personalities } from '../../db/schema/personalities';
import { retryOnReset, waitForDocument } from '../documents/documents.test-support';
import { chat, shareDirectly } from '../conversations/conversations.test-support';
import { createLocalStorage } from '../../storage/local-storage';
import { cardObject, plainPng, pngCard } from './card-fixtures';
import { readPngChunks, readTextChunk } from './png-chunks';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function send(client: TestClient, route: '/import' | '/import/preview', data: Uint8Array | string, name = 'card.bin') {
  const form = new FormData();
  form.append('file', new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), name);
  const res = await retryOnReset(() => client.raw(`/api/personalities${route}`, { method: 'POST', body: form }));
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

const LORE = [
  { keys: ['gull', 'airship'], content: 'The Gull is an airship with brass sails, built in the foundries of Vetra.' },
  { keys: ['compass'], content: 'Mirella keeps a storm compass that always points toward lightning.' },
];
const mirella = () =>
  cardObject({
    name: 'Captain Mirella',
    description: 'A sky pirate of the northern winds.',
    first_mes: 'Ahoy, {{user}}! Welcome aboard the Gull.',
    personality: 'Bold and loyal.',
    scenario: 'On the deck at dawn.',
    system_prompt: 'You are {{char}}.',
    post_history_instructions: 'Never break character.',
    entries: LORE,
  });
const jsonBytes = (v: unknown) => Buffer.from(JSON.stringify(v));

async function names(client: TestClient): Promise<string[]> {
  return ((await client.get('/api/personalities')).body.personalities as { name: string }[]).map((p) => p.name);
}

describe('preview', () => {
  it('says what would be imported and creates nothing', async () => {
    const owner = await server.user();
    const res = await send(owner, '/import/preview', jsonBytes(mirella()), 'mirella.json');
    expect(res.status).toBe(200);
    expect(res.body.preview).toEqual({
      name: 'Captain Mirella',
      description: 'A sky pirate of the northern winds.',
      greeting: 'Ahoy, you! Welcome aboard the Gull.',
      behaviorInstructions:
        'Personality:\nBold and loyal.\n\nScenario:\nOn the deck at dawn.\n\nSystem prompt:\nYou are Captain Mirella.\n\nPost-history instructions:\nNever break character.',
      lorebookEntries: 2,
      hasImage: false,
      descriptionContinued: false,
      spec: 'chara_card_v2',
    });
    expect(await names(owner)).toEqual([]);
  });

  it('needs a signed-in person (anonymous preview and import: 401, nothing created)', async () => {
    const anon = server.client();
    expect((await send(anon, '/import/preview', jsonBytes(mirella()))).status).toBe(401);
    expect((await send(anon, '/import', jsonBytes(mirella()))).status).toBe(401);
    const rows = await server.database.db.select().from(personalities).where(eq(personalities.name, 'Captain Mirella'));
    expect(rows).toHaveLength(0);
  });
});

describe('import', () => {
  it('creates a private personality with the greeting, labelled behaviour, and the lorebook as a cited document', async () => {
    const owner = await server.user();
    const res = await send(owner, '/import', jsonBytes(mirella()), 'mirella.json');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const p = res.body.personality;
    expect(p).toMatchObject({ name: 'Captain Mirella', sharingType: 'private', isPublic: false, isOwner: true, hasAvatar: false, greeting: 'Ahoy, you! Welcome aboard the Gull.' });
    expect(p.behaviorInstructions).toContain('Personality:\nBold and loyal.');

    // Private: a stranger does not see it.
    const stranger = await server.user();
    expect(await names(stranger)).not.toContain('Captain Mirella');
    expect((await stranger.get(`/api/personalities/${p.id}`)).status).toBe(404);

    // The lorebook is one knowledge document, processed like any upload.
    const docs = (await owner.get(`/api/personalities/${p.id}/documents`)).body.documents;
    expect(docs).toHaveLength(1);
    expect(docs[0].fileName).toBe('Captain Mirella lorebook.txt');
    await waitForDocument(owner, p.id, docs[0].id);
    const chunks = (await owner.get(`/api/personalities/${p.id}/documents/${docs[0].id}/chunks`)).body.chunks as { content: string }[];
    const all = chunks.map((c) => c.content).join('\n\n');
    for (const e of LORE) expect(all).toContain(e.content);

    // The greeting opens chat ({{char}}/{{user}} filled in), and answers cite the lorebook.
    const starters = await owner.get(`/api/personalities/${p.id}/starters`);
    expect(starters.body.greeting).toBe('Ahoy, you! Welcome aboard the Gull.');
    const answer = await chat(owner, p.id, { message: 'Tell me about the storm compass that points toward lightning' });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('storm compass');
    expect(answer.text).toContain('Captain Mirella lorebook.txt (chunk');
    // A saved conversation starts with it too.
    const conv = await owner.post(`/api/personalities/${p.id}/conversations`, {});
    expect(conv.body.conversation?.messages?.[0]?.content ?? conv.body.messages?.[0]?.content).toBe('Ahoy, you! Welcome aboard the Gull.');
  });

  it('each lorebook entry is a passage opened by its keys: a question naming only a key finds and cites it', async () => {
    const owner = await server.user();
    const card = cardObject({
      name: 'Archivist',
      entries: [
        { keys: ['Eldoria', 'capital'], content: 'The city sits on a white cliff above the Silver Sea, ruled by a council of nine.' },
        { keys: ['Vetra'], content: 'A foundry town of smoke and brass.' },
      ],
    });
    const id = (await send(owner, '/import', jsonBytes(card))).body.personality.id as string;
    const doc = (await owner.get(`/api/personalities/${id}/documents`)).body.documents[0];
    await waitForDocument(owner, id, doc.id);
    const chunks = (await owner.get(`/api/personalities/${id}/documents/${doc.id}/chunks`)).body.chunks as { content: string }[];
    expect(chunks.map((c) => c.content).join('\n\n')).toContain('Eldoria (capital): The city sits on a white cliff above the Silver Sea');
    const answer = await chat(owner, id, { message: 'Tell me about Eldoria' });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('white cliff');
    expect(answer.text).toContain('Archivist lorebook.txt (chunk');
  });

  it('a V1 card (no spec, fields at the top level) is imported like a V2 card', async () => {
    const owner = await server.user();
    const res = await send(owner, '/import', jsonBytes({ name: 'Old Tom', description: 'A ferryman.', personality: 'Gruff.', first_mes: 'Fare, {{user}}?' }), 'tom.json');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.personality).toMatchObject({ name: 'Old Tom', description: 'A ferryman.', greeting: 'Fare, you?', behaviorInstructions: 'Personality:\nGruff.' });
  });

  it('a card whose description is longer than a personality description keeps the rest in the behaviour instructions', async () => {
    const owner = await server.user();
    const long = Array.from({ length: 10 }, (_, i) => `Part ${i}. ${'{{char}} remembers the harbour at dawn. '.repeat(20).trim()}`).join('\n\n');
    const card = cardObject({ name: 'Longa', description: long, personality: 'Calm.' });
    const preview = await send(owner, '/import/preview', jsonBytes(card));
    expect(preview.status).toBe(200);
    expect(preview.body.preview.behaviorInstructions).toMatch(/^Description \(continued\):\nPart \d+\. Longa remembers/);
    expect(preview.body.preview.descriptionContinued).toBe(true);
    const res = await send(owner, '/import', jsonBytes(card));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const p = res.body.personality;
    expect(p.description.length).toBeLessThanOrEqual(5000);
    expect(p.description.startsWith('Part 0. Longa remembers the harbour at dawn.')).toBe(true);
    const exported = JSON.parse(await (await owner.raw(`/api/personalities/${p.id}/export.json`)).text());
    expect(exported.data.description).toBe(long.replace(/\{\{char\}\}/g, 'Longa'));
    expect(exported.data.personality).toBe('Calm.');

    // Too long even so: a message saying so, not "not a character card".
    const huge = await send(owner, '/import', jsonBytes(cardObject({ name: 'Huge', description: long, system_prompt: 'Rule. '.repeat(3000) })));
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toMatch(/^This character card is too long to import: its description, personality, scenario and instructions are about \d+ characters together/);
  });

  it('a PNG card brings its image as the avatar, served to those who may see the personality only', async () => {
    const owner = await server.user();
    const res = await send(owner, '/import', pngCard(mirella()), 'mirella.png');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.personality.id;
    expect(res.body.personality.hasAvatar).toBe(true);
    const img = await owner.raw(`/api/personalities/${id}/avatar`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await img.arrayBuffer());
    // Rebuilt: the card's text chunk is not in the avatar.
    expect(readPngChunks(bytes).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect((await server.client().raw(`/api/personalities/${id}/avatar`)).status).toBe(404);
    expect((await (await server.user()).raw(`/api/personalities/${id}/avatar`)).status).toBe(404);
  });

  it('keeps HTML and scripts in card text as plain data in JSON answers', async () => {
    const owner = await server.user();
    const script = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const res = await send(owner, '/import', jsonBytes(cardObject({ name: `Eve ${script}`, description: script, first_mes: script })));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.personality).toMatchObject({ name: `Eve ${script}`, description: script, greeting: script });
  });

  it.each([
    ['broken JSON', Buffer.from('{"spec":'), 'it is not valid JSON'],
    ['a PNG without "chara"', plainPng(), 'the PNG has no "chara" or "ccv3" text chunk'],
    ['a wrong spec', jsonBytes({ spec: 'not_a_card', data: { name: 'X' } }), 'its spec is "not_a_card", not chara_card_v2 or chara_card_v3'],
    ['a blank name', jsonBytes(cardObject({ name: '' })), 'its name is blank'],
    ['a text file', Buffer.from('hello there'), 'it is neither a PNG image nor a JSON card'],
  ])('%s: 400 "This file is not a character card: ..." and nothing created', async (_label, bytes, reason) => {
    const owner = await server.user();
    for (const route of ['/import/preview', '/import'] as const) {
      const res = await send(owner, route, bytes);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(`This file is not a character card: ${reason}`);
    }
    expect(await names(owner)).toEqual([]);
  });

  it('over 10 MB: refused with the message, nothing created', async () => {
    const owner = await server.user();
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 0x20);
    big.write('{"spec":"chara_card_v2","data":{"name":"Big"}}', 0);
    const res = await send(owner, '/import', big);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('This file is not a character card: it is larger than 10 MB');
    expect(await names(owner)).toEqual([]);
  });

  it('a request without a file gets a plain message', async () => {
    const owner = await server.user();
    const res = await owner.request('POST', '/api/personalities/import', { file: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Choose a .json or .png character card file');
  });
});

describe('export', () => {
  it('only the owner exports a private or shared personality (stranger 404, share recipient 403, anonymous 401)', async () => {
    const owner = await server.user();
    const friend = await server.user();
    const id = (await send(owner, '/import', pngCard(mirella()))).body.personality.id as string;
    await server.database.db.update(personalities).set({ sharingType: 'shared' }).where(eq(personalities.id, id));
    await shareDirectly(server.database.db, id, owner.id, friend.id);
    for (const ext of ['json', 'png']) {
      expect((await owner.raw(`/api/personalities/${id}/export.${ext}`)).status).toBe(200);
      const refused = await friend.request('GET', `/api/personalities/${id}/export.${ext}`);
      expect(refused.status).toBe(403);
      // An export changes nothing: the message says what is reserved to the owner.
      expect(refused.body.error.message).toBe('Only the owner can export this personality');
      expect((await (await server.user()).raw(`/api/personalities/${id}/export.${ext}`)).status).toBe(404);
      expect((await server.client().raw(`/api/personalities/${id}/export.${ext}`)).status).toBe(401);
    }
    // The share recipient may see the avatar (they may see the personality).
    expect((await friend.raw(`/api/personalities/${id}/avatar`)).status).toBe(200);

    // Public: every signed-in visitor may see it, and is told the export is the owner's.
    await server.database.db.update(personalities).set({ sharingType: 'public', isPublic: true }).where(eq(personalities.id, id));
    const visitor = await server.user();
    const refused = await visitor.request('GET', `/api/personalities/${id}/export.json`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only the owner can export this personality');
  });

  it('names the download after the personality in any script, with an ASCII fallback', async () => {
    const owner = await server.user();
    const id = (await send(owner, '/import', pngCard(mirella()))).body.personality.id as string;
    const dispositionFor = async (name: string, ext = 'json') => {
      await server.database.db.update(personalities).set({ name }).where(eq(personalities.id, id));
      const res = await owner.raw(`/api/personalities/${id}/export.${ext}`);
      expect(res.status).toBe(200);
      return res.headers.get('content-disposition');
    };
    const utf8Name = (disposition: string | null) => decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition ?? '')![1]!);

    expect(await dispositionFor('李白')).toBe(`attachment; filename="character.json"; filename*=UTF-8''%E6%9D%8E%E7%99%BD.json`);
    expect(utf8Name(await dispositionFor('Лев Толстой', 'png'))).toBe('Лев_Толстой.png');
    expect(utf8Name(await dispositionFor('عمر الخيام'))).toBe('عمر_الخيام.json');
    const zoe = await dispositionFor('Zoë 🌸');
    expect(zoe).toMatch(/^attachment; filename="Zoe\.json"; filename\*=UTF-8''/);
    expect(utf8Name(zoe)).toBe('Zoë_🌸.json');
    expect(await dispositionFor("O'Brien (the 2nd)")).toBe(`attachment; filename="OBrien_the_2nd.json"; filename*=UTF-8''OBrien_%28the_2nd%29.json`);

    // Nothing that makes a path, breaks out of the header or hides the real extension.
    const hostile = await dispositionFor('../..\\etc/passwd\u202Egnp.\r\n"x";\u0007');
    expect(hostile).toMatch(/^attachment; filename="[A-Za-z0-9_-]+\.json"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+$/);
    expect(utf8Name(hostile)).toBe('etcpasswdgnp.x;.json');
  });

  it('round-trips name, description, greeting, behaviour and lorebook through JSON and PNG', async () => {
    const owner = await server.user();
    const id = (await send(owner, '/import', pngCard(mirella()))).body.personality.id as string;

    const jsonRes = await owner.raw(`/api/personalities/${id}/export.json`);
    expect(jsonRes.headers.get('content-disposition')).toBe('attachment; filename="Captain_Mirella.json"');
    const exported = JSON.parse(await jsonRes.text());
    expect(exported.spec).toBe('chara_card_v2');
    expect(exported.data).toMatchObject({
      name: 'Captain Mirella',
      description: 'A sky pirate of the northern winds.',
      first_mes: 'Ahoy, you! Welcome aboard the Gull.',
      personality: 'Bold and loyal.',
      scenario: 'On the deck at dawn.',
      system_prompt: 'You are Captain Mirella.',
      post_history_instructions: 'Never break character.',
    });
    expect(exported.data.character_book.entries.map((e: { keys: string[]; content: string }) => ({ keys: e.keys, content: e.content }))).toEqual(LORE);

    const pngRes = await owner.raw(`/api/personalities/${id}/export.png`);
    expect(pngRes.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await pngRes.arrayBuffer());
    const text = readPngChunks(png).find((c) => c.type === 'tEXt')!;
    expect(readTextChunk(text.data)!.keyword).toBe('chara');

    for (const [file, bytes] of [['again.json', Buffer.from(JSON.stringify(exported))], ['again.png', png]] as const) {
      const again = await send(owner, '/import', bytes, file);
      expect(again.status).toBe(201);
      const p = again.body.personality;
      expect(p).toMatchObject({ name: 'Captain Mirella', description: 'A sky pirate of the northern winds.', greeting: 'Ahoy, you! Welcome aboard the Gull.', hasAvatar: file.endsWith('.png') });
      const reExport = JSON.parse(await (await owner.raw(`/api/personalities/${p.id}/export.json`)).text());
      expect(reExport.data).toEqual(exported.data);
    }
  });

  it("gives back on export what Kindred does not use: example dialogue, alternate greetings, notes, tags, creator, version, extensions", async () => {
    const owner = await server.user();
    const card = mirella();
    const extras = {
      mes_example: '<START>\n{{user}}: Where to?\n{{char}}: North, always north.',
      creator_notes: 'Best with a slow pace.',
      alternate_greetings: ['The wind is up, {{user}}.', 'Back again?'],
      tags: ['pirate', 'airship'],
      creator: 'skywright',
      character_version: '2.1',
      extensions: { talkativeness: '0.6', depth_prompt: { prompt: 'Stay salty.', depth: 4 } },
    };
    Object.assign(card.data as Record<string, unknown>, extras);
    const id = (await send(owner, '/import', jsonBytes(card))).body.personality.id as string;
    const exported = JSON.parse(await (await owner.raw(`/api/personalities/${id}/export.json`)).text());
    // As the author wrote them (placeholders too: Kindred does not show these fields).
    expect(exported.data).toMatchObject(extras);
  });

  it('a personality made in the app exports with its greeting; without an image there is no PNG; a deleted lorebook is not exported', async () => {
    const owner = await server.user();
    const made = await owner.post('/api/personalities', { name: 'Plain', description: 'Made here', behaviorInstructions: 'Speak softly.', greeting: 'Hello from Plain' });
    expect(made.status).toBe(201);
    expect(made.body.personality.greeting).toBe('Hello from Plain');
    const id = made.body.personality.id;
    const card = JSON.parse(await (await owner.raw(`/api/personalities/${id}/export.json`)).text());
    expect(card.data).toMatchObject({ name: 'Plain', description: 'Made here', system_prompt: 'Speak softly.', first_mes: 'Hello from Plain' });
    expect(card.data.character_book).toBeUndefined();
    const png = await owner.request('GET', `/api/personalities/${id}/export.png`);
    expect(png.status).toBe(404);
    expect(png.body.error.message).toBe('This personality has no image to export as a PNG card');

    const imported = (await send(owner, '/import', jsonBytes(mirella()))).body.personality.id as string;
    const doc = (await owner.get(`/api/personalities/${imported}/documents`)).body.documents[0];
    await waitForDocument(owner, imported, doc.id, ['ready', 'failed']);
    expect((await owner.delete(`/api/personalities/${imported}/documents/${doc.id}`)).status).toBe(200);
    const after = JSON.parse(await (await owner.raw(`/api/personalities/${imported}/export.json`)).text());
    expect(after.data.character_book).toBeUndefined();
  });
});

describe('greeting field', () => {
  it('is editable, used as the first message when set, and blank goes back to the generic greeting', async () => {
    const owner = await server.user();
    const id = (await owner.post('/api/personalities', { name: 'Greeter' })).body.personality.id;
    expect((await owner.get(`/api/personalities/${id}/starters`)).body.greeting).toBe("Hello! I'm Greeter. What would you like to talk about?");
    expect((await owner.patch(`/api/personalities/${id}`, { greeting: '  Well met, {{user}}.  ' })).body.personality.greeting).toBe('Well met, {{user}}.');
    expect((await owner.get(`/api/personalities/${id}/starters`)).body.greeting).toBe('Well met, you.');
    expect((await owner.patch(`/api/personalities/${id}`, { greeting: '   ' })).body.personality.greeting).toBeNull();
    expect((await owner.get(`/api/personalities/${id}/starters`)).body.greeting).toBe("Hello! I'm Greeter. What would you like to talk about?");
    const other = await server.user();
    expect((await other.patch(`/api/personalities/${id}`, { greeting: 'hijack' })).status).toBe(404);
  });
});

describe('all or nothing', () => {
  it('a failure while storing the lorebook leaves no personality and no stored file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-cards-'));
    const base = createLocalStorage(dir);
    const failing = { ...base, put: async (key: string, data: Uint8Array) => (key.includes('lorebook') ? Promise.reject(new Error('disk full')) : base.put(key, data)) };
    const s = await startTestServer({ start: { storage: failing } });
    try {
      const owner = await s.user();
      const res = await send(owner, '/import', pngCard(mirella()));
      expect(res.status).toBe(500);
      expect(await names(owner)).toEqual([]);
      expect(await s.database.db.select().from(personalities)).toHaveLength(0);
      const left = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.png'));
      expect(left).toEqual([]);
    } finally {
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
