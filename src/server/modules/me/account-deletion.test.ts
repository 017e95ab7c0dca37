// Deleting one's own account (POST /api/auth/delete-user with the password): the person's
// personalities go through the personalities' own delete, so their stored files go from storage and
// their cloned voices from ElevenLabs (the loopback fake); everything else of theirs goes with the
// user row (foreign keys), and what they reported stays listed for admins, with no name.
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test-support/test-server';
import { startFakeElevenLabs, type FakeElevenLabs } from '../../../../tests/fakes/elevenlabs-fake';
import { silentMp3 } from '../../../../tests/fakes/fake-audio';
import { chat, createPersonality, makePublic, shareDirectly } from '../conversations/conversations.test-support';
import { postFileForm, uploadOne } from '../documents/documents.test-support';
import { user as users } from '../../db/schema/auth';
import { personalities } from '../../db/schema/personalities';
import { messages } from '../../../shared/messages';

const PASSWORD = 'secret-pass';
const ADMIN_EMAIL = 'admin-deletion@example.com';

let server: TestServer;
let elevenlabs: FakeElevenLabs;
let admin: TestClient;

beforeAll(async () => {
  elevenlabs = await startFakeElevenLabs();
  server = await startTestServer({ env: { ELEVENLABS_BASE_URL: elevenlabs.url, ELEVENLABS_API_KEY: 'fake-elevenlabs-key', ADMIN_EMAILS: ADMIN_EMAIL } });
  admin = await server.user(ADMIN_EMAIL);
});
afterAll(async () => {
  await server?.close();
  await elevenlabs?.close();
});

function storedFiles(): string[] {
  const dir = path.join(server.config.dataDir, 'blobs');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function countRows(table: string, column: string, value: string): Promise<number> {
  const result = (await server.database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${value}`)) as unknown as {
    rows: { n: number }[];
  };
  return Number(result.rows[0]!.n);
}

async function cloneVoice(client: TestClient, personalityId: string): Promise<string> {
  const res = await postFileForm(client, `/api/personalities/${personalityId}/voice/clone`, 'sample', { name: 'voice.mp3', data: silentMp3(5) }, { consent: 'true' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.personality.customVoiceId as string;
}

/** A person with a personality holding a document and a cloned voice, a conversation with it, and a share. */
async function personWithEverything(friend: { id: string }) {
  const person = await server.user();
  const personalityId = await createPersonality(person, 'Grandad');
  const filesBefore = new Set(storedFiles());
  await uploadOne(person, personalityId, { name: 'letters.txt', data: 'Dear all, the garden is doing well this year.' });
  const ownFiles = storedFiles().filter((f) => !filesBefore.has(f));
  expect(ownFiles.length).toBeGreaterThan(0);
  const voiceId = await cloneVoice(person, personalityId);
  expect((await chat(person, personalityId, { message: 'Hello there' })).status).toBe(200);
  await shareDirectly(server.database.db, personalityId, person.id, friend.id);
  return { person, personalityId, ownFiles, voiceId };
}

describe('deleting one\'s own account', () => {
  it('with the right password removes the person, their personalities, stored files, conversations, sessions and cloned voices', async () => {
    const friend = await server.user();
    const bystander = await server.user();
    const bystanderPersonality = await createPersonality(bystander, 'Nan');
    await makePublic(server.database.db, bystanderPersonality);
    await uploadOne(bystander, bystanderPersonality, { name: 'recipes.txt', data: 'Scones: flour, butter, milk.' });
    const bystanderFiles = storedFiles();
    const { person, personalityId, ownFiles, voiceId } = await personWithEverything(friend);
    expect((await friend.get(`/api/personalities/${personalityId}`)).status).toBe(200);
    // What the person asked of admins and reported stays listed after they are gone.
    expect((await person.post(`/api/personalities/${personalityId}/public-requests`, { message: 'Please' })).status).toBe(201);
    expect((await person.post(`/api/personalities/${bystanderPersonality}/reports`, { content: 'Odd reply' })).status).toBeLessThan(300);
    const oldCookies = new Map(person.cookies);

    const res = await person.post('/api/auth/delete-user', { password: PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const db = server.database.db;
    expect(await db.select().from(users).where(eq(users.id, person.id))).toHaveLength(0);
    expect(await db.select().from(personalities).where(eq(personalities.userId, person.id))).toHaveLength(0);
    expect(await countRows('conversations', 'user_id', person.id)).toBe(0);
    expect(await countRows('session', 'user_id', person.id)).toBe(0);
    expect(await countRows('personality_documents', 'personality_id', personalityId)).toBe(0);
    for (const file of ownFiles) expect(fs.existsSync(file), file).toBe(false);
    expect(elevenlabs.deletedVoices).toContain(voiceId);

    // The old session is over, in this client and in one that kept the cookie.
    expect((await person.get('/api/me')).body.user).toBeNull();
    const kept = server.client();
    for (const [k, v] of oldCookies) kept.cookies.set(k, v);
    expect((await kept.get('/api/me')).body.user).toBeNull();
    expect((await kept.get('/api/personalities')).status).toBe(200);
    expect((await kept.post('/api/personalities', { name: 'After' })).status).toBe(401);
    // Signing in again finds no account.
    expect((await server.client().signIn(person.email, PASSWORD)).status).toBe(401);

    // The shared personality is gone for the friend; the bystander keeps everything.
    expect((await friend.get(`/api/personalities/${personalityId}`)).status).toBe(404);
    expect((await friend.get('/api/personalities')).body.personalities.map((p: { id: string }) => p.id)).not.toContain(personalityId);
    expect((await bystander.get(`/api/personalities/${bystanderPersonality}`)).status).toBe(200);
    for (const file of bystanderFiles) expect(fs.existsSync(file), file).toBe(true);
    expect((await bystander.get(`/api/personalities/${bystanderPersonality}/documents`)).body.documents).toHaveLength(1);

    // Admin lists still show the request and the report, without the person.
    const requests = (await admin.get('/api/admin/public-requests')).body;
    const request = [...requests.pending, ...requests.recent].find((r: { personalityNameAtRequest: string | null; requesterEmail: string }) => r.requesterEmail === messages.approval.unknownUser);
    expect(request, JSON.stringify(requests)).toBeDefined();
    const flags = (await admin.get('/api/admin/content-flags')).body;
    const flag = [...flags.pending, ...flags.recent].find((f: { personalityId: string | null }) => f.personalityId === bystanderPersonality);
    expect(flag, JSON.stringify(flags)).toBeDefined();
    expect(flag.reporter).toBeNull();
  });

  it('with a wrong password deletes nothing and says why', async () => {
    const friend = await server.user();
    const { person, personalityId, ownFiles, voiceId } = await personWithEverything(friend);

    const res = await person.post('/api/auth/delete-user', { password: 'not-my-password' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.message).toBe('Invalid password');

    expect((await person.get('/api/me')).body.user.id).toBe(person.id);
    expect((await person.get(`/api/personalities/${personalityId}`)).status).toBe(200);
    expect((await friend.get(`/api/personalities/${personalityId}`)).status).toBe(200);
    for (const file of ownFiles) expect(fs.existsSync(file), file).toBe(true);
    expect(elevenlabs.deletedVoices).not.toContain(voiceId);
    expect(await countRows('conversations', 'user_id', person.id)).toBe(1);
  });

  it('without a password is refused, even from a session just signed in', async () => {
    const person = await server.user();
    const personalityId = await createPersonality(person, 'Aunt');
    for (const body of [{}, { password: '' }]) {
      const res = await person.post('/api/auth/delete-user', body);
      expect(res.status).toBe(400);
      expect(res.body.error?.message ?? res.body.message).toBe(messages.auth.deletionPasswordRequired);
    }
    expect((await person.get(`/api/personalities/${personalityId}`)).status).toBe(200);
    expect((await person.get('/api/me')).body.user.id).toBe(person.id);
  });

  it('signed out: 401', async () => {
    const res = await server.client().post('/api/auth/delete-user', { password: PASSWORD });
    expect(res.status).toBe(401);
  });
});
