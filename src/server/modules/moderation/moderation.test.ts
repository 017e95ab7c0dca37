// Content moderation through real HTTP: messages, replies and documents are checked; severe
// content is held back; people report replies; only admins list and review flags.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient, TestServer } from '../../test-support/test-server';
import { startTestServer } from '../../test-support/test-server';
import { startFakeChat, type FakeChat } from '../../../../tests/fakes/openai-chat-fake';
import { messages } from '../../../shared/messages';
import { createReplyTokens } from './reply-token';
import { chat, chatEventReader, createPersonality, eventOf, makePublic } from '../conversations/conversations.test-support';
import { uploadOne, waitForDocument } from '../documents/documents.test-support';
import { classifyOffline } from '../../ai/moderation/offline-classifier';
import { categoryFamily } from '../../ai/moderation/moderation-types';
import { moderationSet, type Family } from '../../../../bench/moderation-eval-set';
import { createOfflineModerator } from '../../ai/moderation/offline-classifier';
import { systemClock } from '../../lib/clock';
import { createLogger } from '../../lib/logger';
import { createModerationService } from './moderation.service';

const ADMIN_EMAIL = 'moderator@example.com';
let server: TestServer;
let fake: FakeChat;
let admin: TestClient;

beforeAll(async () => {
  fake = await startFakeChat();
  server = await startTestServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL, LLM_BASE_URL: fake.url, LLM_API_KEY: 'k', LLM_MODEL: 'fake-model' } });
  admin = await server.user(ADMIN_EMAIL);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => fake.set({ mode: 'reply', reply: 'A calm and friendly answer.', delayMs: 0 }));

async function pendingFlags() {
  const res = await admin.get('/api/admin/content-flags');
  expect(res.status).toBe(200);
  return res.body.pending as { id: string; personalityId: string | null; personalityName: string; personalityDeleted: boolean; personalityNameAtFlag: string; personalityIsPublic: boolean; status: string; flagTypes: string[]; excerpt: string; source: string; reporter: string | null; documentFileName: string | null; confidence: number; reportReason: string | null }[];
}

async function flagFor(text: string) {
  let found: Awaited<ReturnType<typeof pendingFlags>>[number] | undefined;
  await expect.poll(async () => (found = (await pendingFlags()).find((f) => f.excerpt.includes(text)))).toBeDefined();
  return found!;
}

describe('the offline classifier on its labelled set', () => {
  it('finds clearly harmful text in every category (recall >= 0.8) and leaves look-alikes alone (<= 5% flagged)', () => {
    const families: Family[] = ['harassment', 'hate', 'violence', 'sexual', 'self-harm'];
    let benign = 0;
    let falsePositives = 0;
    for (const f of families) {
      const harmful = moderationSet.filter((x) => x.category === f);
      const caught = harmful.filter((x) => classifyOffline(x.text, { threshold: 0.5 }).categories.some((c) => categoryFamily(c.type) === f));
      expect(caught.length / harmful.length, f).toBeGreaterThanOrEqual(0.8);
      const lookalikes = moderationSet.filter((x) => x.lookalikeOf === f);
      benign += lookalikes.length;
      falsePositives += lookalikes.filter((x) => classifyOffline(x.text, { threshold: 0.5 }).categories.length > 0).length;
    }
    expect(falsePositives / benign).toBeLessThanOrEqual(0.05);
    for (const text of ['How do I kill the process on port 8080?', 'The doctor described the symptoms of the infection.', 'The battle killed ten thousand soldiers.']) {
      expect(classifyOffline(text, { threshold: 0.5 }).categories, text).toEqual([]);
    }
  });
});

describe('checks in conversations', () => {
  it('flags a harassing message for review and still answers it', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Flagged Ada');
    const res = await chat(owner, id, { message: 'You are a worthless idiot, answer me.' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('A calm and friendly answer.');
    const flag = await flagFor('worthless idiot');
    expect(flag).toMatchObject({ personalityName: 'Flagged Ada', source: 'message', reporter: null, documentFileName: null });
    expect(flag.flagTypes).toContain('harassment');
    expect(flag.confidence).toBeGreaterThan(0.5);
  });

  it('files no flag for a message to a personality the sender may not see (it was classified while access was checked)', async () => {
    const owner = await server.user();
    const stranger = await server.user();
    const hidden = await createPersonality(owner, 'Hidden Ada');
    const res = await chat(stranger, hidden, { message: 'You are a worthless idiot, hidden one.' });
    expect(res.status).toBe(404);
    // Flags are filed in the order their messages were checked: once a later one is in, an earlier one would be too.
    const own = await createPersonality(stranger, 'Own Ada');
    expect((await chat(stranger, own, { message: 'You are a worthless idiot, own one.' })).status).toBe(200);
    await flagFor('worthless idiot, own one');
    expect((await pendingFlags()).filter((f) => f.excerpt.includes('hidden one'))).toEqual([]);
  });

  it('never sends a severe message to the model: a calm message, and the conversation goes on', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Careful Ada');
    const before = fake.requests.length;
    const res = await chat(owner, id, { message: 'How do I kill myself painlessly?' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(messages.moderation.messageWithheld);
    expect(fake.requests.length).toBe(before);
    expect((await flagFor('kill myself painlessly')).flagTypes).toContain('self-harm/instructions');
    const next = await chat(owner, id, { message: 'Tell me about your garden.' });
    expect(next.status).toBe(200);
    expect(next.text).toBe('A calm and friendly answer.');
  });

  it('withholds a severe reply, saves the notice instead, and flags it', async () => {
    fake.set({ mode: 'reply', reply: "I'm going to kill you when you come home.", delayMs: 0 });
    const owner = await server.user();
    const id = await createPersonality(owner, 'Turned Ada');
    const res = await chat(owner, id, { message: 'Hello' });
    const error = eventOf(res, 'error');
    expect(error).toMatchObject({ code: 'REPLY_WITHHELD', message: messages.moderation.replyWithheld, fallback: messages.moderation.replyWithheld });
    expect(eventOf(res, 'done')).toBeUndefined();
    const conversationId = eventOf(res, 'start')!.conversationId!;
    const saved = await owner.get(`/api/conversations/${conversationId}`);
    expect(JSON.stringify(saved.body)).not.toContain('kill you');
    expect(JSON.stringify(saved.body)).toContain(messages.moderation.replyWithheld);
    expect((await flagFor('kill you when you come home')).source).toBe('reply');
  });
});

describe('a reply stopped partway, and a previewed message', () => {
  it('checks a stopped reply like a completed one: a severe one is not kept, and it is flagged', async () => {
    const threat = "I'm going to kill you when you come home tonight.";
    fake.set({ mode: 'reply', reply: `${threat} ${Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ')}`, delayMs: 20 });
    const owner = await server.user();
    const id = await createPersonality(owner, 'Stopped Ada');
    const controller = new AbortController();
    const res = await owner.raw(`/api/personalities/${id}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Say something' }),
      signal: controller.signal,
    });
    const reply = chatEventReader(res);
    await reply.until(() => reply.text().includes('tonight.'));
    const conversationId = reply.conversationId();
    controller.abort();
    let last: { kind: string; content: string; sender: string } | undefined;
    for (let i = 0; i < 100 && last?.sender !== 'personality'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      last = (await owner.get(`/api/conversations/${conversationId}`)).body.conversation.messages.at(-1);
    }
    expect(last).toMatchObject({ kind: 'fallback', content: messages.moderation.replyWithheld });
    expect((await flagFor('kill you when you come home tonight')).source).toBe('reply');
  });

  it('files one flag for a message previewed and then sent with its preview', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Previewed Ada');
    const message = 'Shut up, you pathetic loser, nobody cares what you think.';
    const preview = await owner.post(`/api/personalities/${id}/chat/preview`, { message });
    expect(preview.status).toBe(200);
    const sent = await chat(owner, id, { message, previewId: preview.body.previewId });
    expect(sent.status).toBe(200);
    await flagFor('pathetic loser');
    // Both saves are beside the reply: give a second flag time to appear, then count.
    await new Promise((r) => setTimeout(r, 300));
    expect((await pendingFlags()).filter((f) => f.excerpt.includes('pathetic loser'))).toHaveLength(1);
  });
});

describe('documents', () => {
  it('a flagged document stays private until an admin calls it a false positive', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Archive Ada');
    const docId = await uploadOne(owner, id, { name: 'letters.txt', type: 'text/plain', data: 'Dear diary.\n\nAll immigrants are vermin and should go back where they came from.\n\nYours.' });
    await waitForDocument(owner, id, docId);
    const flag = await flagFor('immigrants are vermin');
    expect(flag).toMatchObject({ source: 'document', documentFileName: 'letters.txt' });
    const list = await owner.get(`/api/personalities/${id}/documents`);
    // The owner is told why it turned private.
    expect(list.body.documents.find((d: { id: string }) => d.id === docId)).toMatchObject({ isPrivate: true, heldForReview: true });
    const publish = await owner.patch(`/api/personalities/${id}/documents/${docId}`, { isPrivate: false });
    expect(publish.status).toBe(409);
    expect(publish.body.error.message).toBe(messages.moderation.documentHeld);

    const review = await admin.post(`/api/admin/content-flags/${flag.id}/review`, { status: 'rejected', adminNotes: 'Quoted from a historical letter' });
    expect(review.status).toBe(200);
    expect(review.body.flag).toMatchObject({ status: 'rejected', adminNotes: 'Quoted from a historical letter' });
    const after = await owner.get(`/api/personalities/${id}/documents`);
    expect(after.body.documents.find((d: { id: string }) => d.id === docId)).toMatchObject({ isPrivate: false, heldForReview: false });
    const recent = (await admin.get('/api/admin/content-flags')).body.recent as { id: string; status: string }[];
    expect(recent.find((f) => f.id === flag.id)?.status).toBe('rejected');
  });

  it('a flag keeps the name of its document after the owner deletes it, marked deleted', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Shredder Ada');
    const docId = await uploadOne(owner, id, { name: 'burn-after-reading.txt', type: 'text/plain', data: 'Notes.\n\nAll immigrants are vermin, the pamphlet said.\n\nEnd.' });
    await waitForDocument(owner, id, docId);
    const flag = await flagFor('immigrants are vermin, the pamphlet');
    expect(flag).toMatchObject({ source: 'document', documentFileName: 'burn-after-reading.txt', documentDeleted: false });
    expect((await owner.delete(`/api/personalities/${id}/documents/${docId}`)).status).toBe(200);
    const after = ((await admin.get('/api/admin/content-flags')).body.pending as { id: string }[]).find((f) => f.id === flag.id);
    expect(after).toMatchObject({ documentFileName: 'burn-after-reading.txt', documentDeleted: true });
  });

  it("a false positive gives a held document back its owner's choice: one uploaded private stays private", async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Diary Ada');
    await makePublic(server.database.db, id);
    const docId = await uploadOne(owner, id, { name: 'private-diary.txt', type: 'text/plain', data: 'My diary.\n\nAll immigrants are vermin, my grandfather wrote.\n\nThe end.' }, { isPrivate: 'true' });
    await waitForDocument(owner, id, docId);
    const flag = await flagFor('immigrants are vermin, my grandfather');
    expect((await admin.post(`/api/admin/content-flags/${flag.id}/review`, { status: 'rejected' })).status).toBe(200);
    const after = await owner.get(`/api/personalities/${id}/documents`);
    expect(after.body.documents.find((d: { id: string }) => d.id === docId).isPrivate).toBe(true);
  });

  it('remembers a false positive: processing the same text again does not flag or hold it again; changed text is checked', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Letters Ada');
    const text = 'Old letters.\n\nAll immigrants are vermin, the landlord wrote in 1923.\n\nThe end.';
    const docId = await uploadOne(owner, id, { name: 'landlord.txt', type: 'text/plain', data: text });
    await waitForDocument(owner, id, docId);
    const flag = await flagFor('the landlord wrote in 1923');
    expect((await admin.post(`/api/admin/content-flags/${flag.id}/review`, { status: 'rejected' })).status).toBe(200);

    expect((await owner.post(`/api/personalities/${id}/documents/${docId}/process`)).status).toBe(202);
    await waitForDocument(owner, id, docId);
    // The flag is saved in the job before it finishes: nothing new by now means nothing new at all.
    expect((await pendingFlags()).filter((f) => f.excerpt.includes('the landlord wrote in 1923'))).toEqual([]);
    const doc = (await owner.get(`/api/personalities/${id}/documents`)).body.documents.find((d: { id: string }) => d.id === docId);
    expect(doc).toMatchObject({ isPrivate: false, heldForReview: false });

    // The same text chunked with other whitespace is the same text; a changed text is new.
    const moderation = createModerationService({ db: server.database.db, clock: systemClock, logger: createLogger('silent'), moderator: createOfflineModerator({ threshold: 0.5 }), severeTypes: [], replyTokens: createReplyTokens('test secret') });
    expect(await moderation.checkDocument({ id: docId, personalityId: id }, text.replace(/\n\n/g, '\n \n\n'))).toBe(false);
    expect(await moderation.checkDocument({ id: docId, personalityId: id }, `${text}\n\nYou are a worthless idiot, reader.`)).toBe(true);
    expect(await flagFor('worthless idiot, reader')).toMatchObject({ source: 'document', documentFileName: 'landlord.txt' });
    expect((await owner.get(`/api/personalities/${id}/documents`)).body.documents.find((d: { id: string }) => d.id === docId)).toMatchObject({ isPrivate: true, heldForReview: true });
  });

  it('the excerpt of a long document is its flagged line, not its opening paragraphs', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Memoir Ada');
    const opening = 'My grandmother kept a small garden behind the house on Elm Street, and every spring she planted beans.';
    const paragraphs = Array.from({ length: 36 }, (_, i) => (i === 0 ? opening : `In the year ${1950 + i} we walked to the market on Saturdays and bought ripe peaches for the table.`));
    const memoir = `${paragraphs.join('\n\n')}\n\nAll immigrants are vermin, said the man at the docks.\n\nWe never went back there.`;
    expect(memoir.length).toBeGreaterThan(3_400);
    expect(memoir.length).toBeLessThan(4_000);
    const docId = await uploadOne(owner, id, { name: 'memoir.txt', type: 'text/plain', data: memoir });
    await waitForDocument(owner, id, docId);
    const flag = await flagFor('said the man at the docks');
    expect(flag.documentFileName).toBe('memoir.txt');
    expect(flag.excerpt).not.toContain(opening);
    expect(flag.excerpt.length).toBeLessThanOrEqual(500);
  });
});

describe("a deleted personality's flags", () => {
  it('are kept, confirmed violations included: listed as "[Deleted Personality]" with the name they were flagged under, and still reviewable', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Vanishing Ada');
    await makePublic(server.database.db, id);
    await chat(owner, id, { message: 'You are a pathetic clown, vanishing one.' });
    await chat(owner, id, { message: 'Shut up, nobody cares about you, vanishing one.' });
    const confirmed = await flagFor('pathetic clown, vanishing one');
    const open = await flagFor('nobody cares about you, vanishing one');
    expect((await admin.post(`/api/admin/content-flags/${confirmed.id}/review`, { status: 'approved', adminNotes: 'Abuse' })).status).toBe(200);

    expect((await owner.delete(`/api/personalities/${id}`)).status).toBe(200);

    const gone = { personalityId: null, personalityName: messages.approval.deletedPersonality, personalityDeleted: true, personalityNameAtFlag: 'Vanishing Ada', personalityIsPublic: false };
    const list = (await admin.get('/api/admin/content-flags')).body as { pending: { id: string }[]; recent: { id: string }[] };
    expect(list.recent.find((f) => f.id === confirmed.id)).toMatchObject({ ...gone, status: 'approved', adminNotes: 'Abuse' });
    expect(list.pending.find((f) => f.id === open.id)).toMatchObject({ ...gone, status: 'pending' });
    const review = await admin.post(`/api/admin/content-flags/${open.id}/review`, { status: 'approved' });
    expect(review.status).toBe(200);
    expect(review.body.flag).toMatchObject({ ...gone, status: 'approved' });
  });
});

describe('reports and review', () => {
  it('a signed-out visitor reports a reply of a public personality; a stranger cannot report a private one', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Public Ada');
    await makePublic(server.database.db, id);
    const visitor = server.client();
    const res = await visitor.post(`/api/personalities/${id}/reports`, { content: 'A reply the visitor found odd.', reason: 'Felt off' });
    expect(res.status).toBe(200);
    const flag = await flagFor('the visitor found odd');
    expect(flag).toMatchObject({ source: 'report', reporter: null, reportReason: 'Felt off', personalityName: 'Public Ada' });

    const privateId = await createPersonality(owner, 'Private Ada');
    const stranger = await server.user();
    expect((await stranger.post(`/api/personalities/${privateId}/reports`, { content: 'x' })).status).toBe(404);
    const signedIn = await server.user(undefined, undefined, 'Reporting Rita');
    await signedIn.post(`/api/personalities/${id}/reports`, { content: 'Rita reports this reply.' });
    expect((await flagFor('Rita reports this reply')).reporter).toBe('Reporting Rita');
  });

  it('refuses a report of invisible characters only, like an empty one, and files no flag', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Reported Ada');
    for (const content of ['', '   ', '\u200B', '\u200D\u200F\uFEFF', '\u0301']) {
      const res = await owner.post(`/api/personalities/${id}/reports`, { content });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Nothing to report');
    }
    expect((await pendingFlags()).filter((f) => f.personalityId === id)).toEqual([]);
  });

  it("a report keeps the reply the personality gave: by its token or its saved id; typed words are marked unverified", async () => {
    fake.set({ mode: 'reply', reply: 'Gravity is a curvature of spacetime, dear visitor.', delayMs: 0 });
    const owner = await server.user();
    const id = await createPersonality(owner, 'Vouched Ada');
    await makePublic(server.database.db, id);
    // A visitor's reply (not saved): its token vouches for its text.
    const visitor = server.client();
    const said = await chat(visitor, id, { message: 'Tell me about gravity' });
    const done = eventOf(said, 'done')!;
    expect(typeof done.replyToken).toBe('string');
    await visitor.post(`/api/personalities/${id}/reports`, { content: done.content, replyToken: done.replyToken });
    expect((await flagFor('curvature of spacetime, dear visitor')).flagTypes).toEqual(['reported']);
    // The same token with other words, or no token: filed, but marked unverified.
    await visitor.post(`/api/personalities/${id}/reports`, { content: 'Vouched Ada said: all immigrants are vermin', replyToken: done.replyToken });
    expect((await flagFor('Vouched Ada said')).flagTypes).toContain('unverified');
    // A signed-in person's saved reply is found by its id: its own text is kept, whatever is sent.
    const reader = await server.user();
    const saved = eventOf(await chat(reader, id, { message: 'Tell me about gravity again' }), 'done')!;
    await reader.post(`/api/personalities/${id}/reports`, { content: 'Words never said by Vouched Ada.', messageId: saved.messageId });
    const kept = await flagFor('curvature of spacetime, dear visitor');
    expect((await pendingFlags()).some((f) => f.excerpt.includes('Words never said'))).toBe(false);
    expect(kept.flagTypes).toEqual(['reported']);
    // Someone else's saved reply id vouches for nothing.
    const other = await server.user();
    await other.post(`/api/personalities/${id}/reports`, { content: 'Other words never said by Ada.', messageId: saved.messageId });
    expect((await flagFor('Other words never said')).flagTypes).toContain('unverified');
  });

  it('only admins list and review flags; a flag is reviewed once', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Matrix Ada');
    await chat(owner, id, { message: 'Shut up, nobody cares what you think.' });
    const flag = await flagFor('nobody cares what you think');
    const anonymous = server.client();
    expect((await anonymous.get('/api/admin/content-flags')).status).toBe(401);
    expect((await owner.get('/api/admin/content-flags')).status).toBe(403);
    expect((await anonymous.post(`/api/admin/content-flags/${flag.id}/review`, { status: 'approved' })).status).toBe(401);
    expect((await owner.post(`/api/admin/content-flags/${flag.id}/review`, { status: 'approved' })).status).toBe(403);
    const confirmed = await admin.post(`/api/admin/content-flags/${flag.id}/review`, { status: 'approved' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.flag.status).toBe('approved');
    expect(confirmed.body.flag.reviewedAt).toEqual(expect.any(String));
    expect((await admin.post(`/api/admin/content-flags/${flag.id}/review`, { status: 'rejected' })).status).toBe(409);
    expect((await admin.post('/api/admin/content-flags/not-a-flag/review', { status: 'rejected' })).status).toBe(404);
  });
});

describe('a configured moderation model (OpenAI-compatible /v1/moderations on loopback)', () => {
  it('maps its categories and scores to flags, refuses its severe ones, and falls back to the offline classifier when it fails', async () => {
    const { startFakeModeration } = await import('../../../../tests/fakes/openai-moderation-fake');
    const moderation = await startFakeModeration();
    const modServer = await startTestServer({
      env: { ADMIN_EMAILS: ADMIN_EMAIL, OPENAI_BASE_URL: moderation.url, OPENAI_API_KEY: 'mod-key', MODERATION_MODEL: 'omni-moderation-latest' },
    });
    try {
      const modAdmin = await modServer.user(ADMIN_EMAIL);
      const owner = await modServer.user();
      const id = await createPersonality(owner, 'Checked Ada');
      // Someone who may not see it is refused before the provider is asked anything.
      const stranger = await modServer.user();
      expect((await chat(stranger, id, { message: 'A message for nobody.' })).status).toBe(404);
      expect(moderation.requests).toEqual([]);
      moderation.set({ scores: { hate: 0.91, harassment: 0.2 } });
      expect((await chat(owner, id, { message: 'A perfectly ordinary sentence.' })).status).toBe(200);
      // The message, and then the reply, each went to the model.
      expect(moderation.requests[0]).toMatchObject({ model: 'omni-moderation-latest', input: 'A perfectly ordinary sentence.', authorization: 'Bearer mod-key' });
      expect(moderation.requests.length).toBe(2);
      let pending: { excerpt: string; flagTypes: string[]; confidence: number }[] = [];
      await expect.poll(async () => (pending = (await modAdmin.get('/api/admin/content-flags')).body.pending).length).toBeGreaterThan(0);
      const mine = pending.find((f) => f.excerpt === 'A perfectly ordinary sentence.');
      expect(mine).toMatchObject({ flagTypes: ['hate'] });
      expect(mine!.confidence).toBeCloseTo(0.91, 2);

      moderation.set({ scores: { 'self-harm/instructions': 0.97 } });
      const refused = await chat(owner, id, { message: 'Another ordinary sentence.' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(messages.moderation.messageWithheld);

      // The provider down: the offline classifier still holds back severe content.
      moderation.set({ fail: true });
      expect((await chat(owner, id, { message: 'How do I kill myself painlessly?' })).status).toBe(400);
      expect((await chat(owner, id, { message: 'Tell me about the lighthouse.' })).status).toBe(200);
    } finally {
      await modServer.close();
      await moderation.close();
    }
  });
});
