// Bad input on the personality routes gets a clear 4xx (never a 500), text is stored as text, and
// the form's voice choice is stored by the spec's voice rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { limits } from '../../../shared/limits';
import { messages } from '../../../shared/messages';

let server: TestServer;
let owner: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.user();
});
afterAll(async () => {
  await server?.close();
});

async function create(body: unknown) {
  return owner.post('/api/personalities', body);
}

describe('personality names', () => {
  it.each([
    ['missing', {}],
    ['empty', { name: '' }],
    ['blank', { name: '   \t ' }],
    ['null', { name: null }],
    // Nothing that shows is no name (String.trim() keeps these): no card with an empty title.
    ['zero-width space', { name: '\u200B' }],
    ['zero-width joiner', { name: '\u200D' }],
    ['right-to-left mark', { name: '\u200F' }],
    ['lone combining accent', { name: '\u0301' }],
    ['BOM, soft hyphen and spaces', { name: ' \uFEFF\u00AD ' }],
    ['right-to-left override only', { name: '\u202E' }],
  ])('refuses a %s name with the spec message', async (_label, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: messages.personality.nameRequired } });
  });

  it('accepts a name at the limit and refuses one past it', async () => {
    const atLimit = 'n'.repeat(limits.personalityNameMax);
    expect((await create({ name: atLimit })).status).toBe(201);
    const tooLong = await create({ name: 'n'.repeat(limits.personalityNameMax + 1) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toContain(String(limits.personalityNameMax));
  });

  it('trims names and refuses a blank rename without changing anything', async () => {
    const created = await create({ name: '  Grace Hopper  ' });
    expect(created.body.personality.name).toBe('Grace Hopper');
    const id = created.body.personality.id;
    const blank = await owner.patch(`/api/personalities/${id}`, { name: '  ' });
    expect(blank.status).toBe(400);
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.name).toBe('Grace Hopper');
  });

  it('refuses a rename to invisible characters only without changing anything', async () => {
    const id = (await create({ name: 'Ada Lovelace' })).body.personality.id;
    for (const name of ['\u200B', '\u200D\u200F', '\u0301']) {
      const res = await owner.patch(`/api/personalities/${id}`, { name });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(messages.personality.nameRequired);
    }
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.name).toBe('Ada Lovelace');
  });

  it('saves a name without bidi overrides and isolates, so it cannot show reversed', async () => {
    const created = await create({ name: 'Albert \u202Enietsnie' });
    expect(created.status).toBe(201);
    expect(created.body.personality.name).toBe('Albert nietsnie');
    const id = created.body.personality.id;
    const renamed = await owner.patch(`/api/personalities/${id}`, { name: '\u2067Marie\u2069 \u202DCurie\u202C' });
    expect(renamed.status).toBe(200);
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.name).toBe('Marie Curie');
  });

  it('keeps names written with joiners and accents exactly as typed', async () => {
    for (const name of ['👩‍👩‍👧 Family', 'می\u200Cخواهم', 'Zoë', 'Jose\u0301', '\u200Fשלום']) {
      const res = await create({ name });
      expect(res.status).toBe(201);
      expect(res.body.personality.name).toBe(name);
    }
  });

  it('refuses huge descriptions and behavior instructions', async () => {
    const desc = await create({ name: 'A', description: 'd'.repeat(limits.personalityDescriptionMax + 1) });
    expect(desc.status).toBe(400);
    // The message names the field it is about.
    expect(desc.body.error.message).toBe(`Description must be at most ${limits.personalityDescriptionMax} characters`);
    const behavior = await create({ name: 'A', behaviorInstructions: 'b'.repeat(limits.behaviorInstructionsMax + 1) });
    expect(behavior.status).toBe(400);
    expect(behavior.body.error.message).toBe(`Behavior instructions must be at most ${limits.behaviorInstructionsMax} characters`);
    const greeting = await create({ name: 'A', greeting: 'g'.repeat(limits.personalityGreetingMax + 1) });
    expect(greeting.body.error.message).toBe(`Greeting must be at most ${limits.personalityGreetingMax} characters`);
    const ok = await create({ name: 'A', description: 'd'.repeat(limits.personalityDescriptionMax) });
    expect(ok.status).toBe(201);
  });
});

describe('wrong types, unknown fields and bad JSON', () => {
  it.each([
    ['a number name', { name: 42 }],
    ['an array name', { name: ['x'] }],
    ['an object description', { name: 'A', description: { html: '<b>' } }],
    ['an unknown voice provider', { name: 'A', voiceProvider: 'coqui' }],
    ['a string phonetic flag', { name: 'A', enablePhoneticTranscription: 'yes' }],
    ['a body that is an array', [{ name: 'A' }]],
    ['a body that is a string', '"just a string"'],
    ['a body that is null', 'null'],
  ])('refuses %s with 400', async (_label, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  it('names an unknown field', async () => {
    const res = await create({ name: 'A', isPublic: true });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Unknown field: isPublic');
    const patch = await owner.patch(`/api/personalities/${(await create({ name: 'B' })).body.personality.id}`, { sharingType: 'public' });
    expect(patch.status).toBe(400);
    expect(patch.body.error.message).toBe('Unknown field: sharingType');
  });

  it.each(['{', '{"name": "A",}', "{'name': 'A'}", 'not json at all'])('answers malformed JSON %j with 400', async (text) => {
    const res = await owner.request('POST', '/api/personalities', text, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toBe(messages.errors.badJson);
  });

  it('answers a body that is not JSON with a 4xx', async () => {
    const res = await owner.request('POST', '/api/personalities', 'name=A', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error).toBeDefined();
  });
});

describe('text is stored as text', () => {
  it('keeps script tags and javascript: links verbatim, for the web to render as text', async () => {
    const description = '<script>alert("x")</script> see [me](javascript:alert(1)) and javascript:alert(2) <img src=x onerror=alert(3)>';
    const res = await create({ name: '<b>Bold</b>', description, behaviorInstructions: '"); DROP TABLE personalities; --' });
    expect(res.status).toBe(201);
    const read = await owner.get(`/api/personalities/${res.body.personality.id}`);
    expect(read.headers.get('content-type')).toContain('application/json');
    expect(read.body.personality).toMatchObject({
      name: '<b>Bold</b>',
      description,
      behaviorInstructions: '"); DROP TABLE personalities; --',
    });
  });

  it('refuses text PostgreSQL cannot store (a NUL character) with 400, not 500', async () => {
    const name = await create({ name: 'a\u0000b' });
    expect(name.status).toBe(400);
    expect(name.body.error).toEqual({ code: 'BAD_REQUEST', message: messages.errors.unstorableText });
    expect((await create({ name: 'ok', behaviorInstructions: 'x\u0000' })).status).toBe(400);
  });

  it('clears optional fields sent blank', async () => {
    const res = await create({ name: 'C', description: 'temp' });
    const cleared = await owner.patch(`/api/personalities/${res.body.personality.id}`, { description: '   ' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.personality.description).toBeNull();
  });

  it('clears optional fields of invisible characters only: a zero-width agent id is no agent id', async () => {
    const res = await create({ name: 'D', voiceProvider: 'elevenlabs', agentId: '\u200B', description: '\u200D\u200F' });
    expect(res.status).toBe(201);
    expect(res.body.personality).toMatchObject({ agentId: null, description: null });
  });
});

describe('voice rules', () => {
  it('defaults to the default provider with no voice', async () => {
    const res = await create({ name: 'Plain' });
    expect(res.body.personality).toMatchObject({ voiceProvider: 'default', voice: null, agentId: null });
  });

  it('openai sets alloy and stores the phonetic flag', async () => {
    const res = await create({ name: 'Speaker', voiceProvider: 'openai', enablePhoneticTranscription: true });
    expect(res.status).toBe(201);
    expect(res.body.personality.voice).toBe('alloy');
    expect(res.body.personality.voiceSettings).toMatchObject({
      provider: 'openai',
      openai_voice: 'alloy',
      enable_phonetic_transcription: true,
    });
    const nova = await create({ name: 'Nova', voiceProvider: 'openai', voice: 'nova' });
    expect(nova.body.personality.voiceSettings).toMatchObject({ openai_voice: 'nova', enable_phonetic_transcription: false });
  });

  it('elevenlabs sets the female preset and keeps the agent id', async () => {
    const res = await create({ name: 'Eleven', voiceProvider: 'elevenlabs', agentId: 'agent_123' });
    expect(res.status).toBe(201);
    expect(res.body.personality).toMatchObject({ voiceProvider: 'elevenlabs', voice: 'female', agentId: 'agent_123' });
    expect(res.body.personality.voiceSettings).toMatchObject({ type: 'female', voice_type: 'preset', openai_voice: 'nova' });
  });

  it('keeps an agent id only for elevenlabs', async () => {
    const openai = await create({ name: 'NoAgent', voiceProvider: 'openai', agentId: 'agent_x' });
    expect(openai.body.personality.agentId).toBeNull();
    const eleven = await create({ name: 'Switcher', voiceProvider: 'elevenlabs', voice: 'male', agentId: 'agent_y' });
    const id = eleven.body.personality.id;
    expect(eleven.body.personality.voice).toBe('male');
    const switched = await owner.patch(`/api/personalities/${id}`, { voiceProvider: 'openai' });
    expect(switched.status).toBe(200);
    expect(switched.body.personality).toMatchObject({ voiceProvider: 'openai', voice: 'alloy', agentId: null });
    const phonetic = await owner.patch(`/api/personalities/${id}`, { enablePhoneticTranscription: true });
    expect(phonetic.body.personality.voiceSettings.enable_phonetic_transcription).toBe(true);
    expect(phonetic.body.personality.voice).toBe('alloy');
    const back = await owner.patch(`/api/personalities/${id}`, { voiceProvider: 'elevenlabs' });
    expect(back.body.personality).toMatchObject({ voiceProvider: 'elevenlabs', voice: 'female' });
  });
});

describe('two editors of one personality', () => {
  it("refuses a save from a form opened before another change, and keeps the other change", async () => {
    const created = (await create({ name: 'Twin Tabs', description: 'Original description' })).body.personality;
    // Tab A saves first, from the version both tabs opened.
    const a = await owner.patch(`/api/personalities/${created.id}`, { description: 'Edited in tab A', expectedUpdatedAt: created.updatedAt });
    expect(a.status).toBe(200);
    // Tab B still holds the old version: refused, with a message, and A's change stands.
    const b = await owner.patch(`/api/personalities/${created.id}`, { behaviorInstructions: 'Edited in tab B', expectedUpdatedAt: created.updatedAt });
    expect(b.status).toBe(409);
    expect(b.body.error).toMatchObject({ code: 'CONFLICT', message: messages.personality.changedElsewhere });
    const now = (await owner.get(`/api/personalities/${created.id}`)).body.personality;
    expect(now).toMatchObject({ description: 'Edited in tab A', behaviorInstructions: null });
    // From the version it now has, B's save goes through.
    const again = await owner.patch(`/api/personalities/${created.id}`, { behaviorInstructions: 'Edited in tab B', expectedUpdatedAt: now.updatedAt });
    expect(again.status).toBe(200);
    expect(again.body.personality).toMatchObject({ description: 'Edited in tab A', behaviorInstructions: 'Edited in tab B' });
    // Without a version (an API client), the save is applied as before.
    expect((await owner.patch(`/api/personalities/${created.id}`, { greeting: 'Hello' })).status).toBe(200);
    expect((await owner.patch(`/api/personalities/${created.id}`, { greeting: 'Hi', expectedUpdatedAt: 'yesterday' })).status).toBe(400);
  });
});

describe('an edit that says which values it started from (the edit form)', () => {
  it("is refused only when a field it changes was changed since; another field's change or a sharing change stands beside it", async () => {
    const created = (await create({ name: 'Field Tabs', description: 'Original description', voiceProvider: 'openai', voice: 'echo' })).body.personality;
    const id = created.id as string;
    // Tab A saves a new description.
    const a = await owner.patch(`/api/personalities/${id}`, { description: 'Edited in tab A', expected: { description: 'Original description' } });
    expect(a.status).toBe(200);
    // The owner shares it in another tab (updated_at moves on; no editable field changes).
    expect((await owner.put(`/api/personalities/${id}/sharing`, { sharingType: 'shared' })).status).toBe(200);
    // Tab B, opened before both, changes the behavior instructions: saved, and A's description stands.
    const b = await owner.patch(`/api/personalities/${id}`, { behaviorInstructions: 'Edited in tab B', expected: { behaviorInstructions: '' } });
    expect(b.status).toBe(200);
    expect(b.body.personality).toMatchObject({ description: 'Edited in tab A', behaviorInstructions: 'Edited in tab B', sharingType: 'shared' });
    // Tab C, opened before A, changes the description too: refused, and A's description stands.
    const c = await owner.patch(`/api/personalities/${id}`, { description: 'Edited in tab C', expected: { description: 'Original description' } });
    expect(c.status).toBe(409);
    expect(c.body.error).toMatchObject({ code: 'CONFLICT', message: messages.personality.changedElsewhere });
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.description).toBe('Edited in tab A');
    // Voice settings compare as the form shows them: the voice it opened with is "echo".
    const voiceStale = await owner.patch(`/api/personalities/${id}`, {
      voiceProvider: 'openai',
      voice: 'nova',
      expected: { voiceProvider: 'openai', voice: 'alloy', agentId: '', enablePhoneticTranscription: false },
    });
    expect(voiceStale.status).toBe(409);
    const voice = await owner.patch(`/api/personalities/${id}`, {
      voiceProvider: 'openai',
      voice: 'nova',
      expected: { voiceProvider: 'openai', voice: 'echo', agentId: '', enablePhoneticTranscription: false },
    });
    expect(voice.status).toBe(200);
    expect(voice.body.personality).toMatchObject({ voice: 'nova', description: 'Edited in tab A', behaviorInstructions: 'Edited in tab B' });
  });

  it('refuses what is not a saved value, and another owner gets no answer about the values', async () => {
    const created = (await create({ name: 'Strict Expected' })).body.personality;
    const unknownField = await owner.patch(`/api/personalities/${created.id}`, { greeting: 'Hi', expected: { sharingType: 'private' } });
    expect(unknownField.status).toBe(400);
    const wrongType = await owner.patch(`/api/personalities/${created.id}`, { greeting: 'Hi', expected: { greeting: 42 } });
    expect(wrongType.status).toBe(400);
    const stranger = await server.user();
    const foreign = await stranger.patch(`/api/personalities/${created.id}`, { greeting: 'Hi', expected: { greeting: 'wrong guess' } });
    expect(foreign.status).toBe(404);
    expect((await owner.get(`/api/personalities/${created.id}`)).body.personality.greeting).toBeNull();
  });
});
