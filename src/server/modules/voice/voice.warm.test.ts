// Open mic's call-start warm-up (POST /api/personalities/{id}/voice/warm): only for whoever may
// see the personality (404 otherwise, before anything is warmed), rate-limited with the voice
// message, readies speech-to-text (a free model listing at the service, no transcription) and
// the chat, and saves nothing: no conversation, no logged question, no model call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, makePublic, shareDirectly } from '../conversations/conversations.test-support';
import { startVoiceServer, toneWav16, transcribe, type VoiceTestServer } from './voice.test-support';

const MAX = 3;
let v: VoiceTestServer;
let owner: TestClient & { id: string };
let recipient: TestClient & { id: string };
let stranger: TestClient & { id: string };
let privateId: string;
let publicId: string;

// The limit counts per minute by the server's clock: held still here, so a minute that ends
// between two of a test's requests cannot start a fresh window.
const clock = { at: Date.now(), now: () => new Date(clock.at) };

const warm = (client: TestClient, id: string) => client.raw(`/api/personalities/${id}/voice/warm`, { method: 'POST' });

beforeAll(async () => {
  v = await startVoiceServer({ clock, env: { RATE_LIMIT_VOICE_PER_MINUTE: String(MAX) } });
  [owner, recipient, stranger] = await Promise.all([v.server.user(), v.server.user(), v.server.user()]);
  privateId = await createPersonality(owner, 'Warm Private', { voiceProvider: 'openai', voice: 'nova' });
  await shareDirectly(v.server.database.db, privateId, owner.id, recipient.id);
  publicId = await createPersonality(owner, 'Warm Public');
  await makePublic(v.server.database.db, publicId);
});
afterAll(async () => {
  await v?.close();
});

describe('voice warm-up', () => {
  it('answers 204 to the owner and a share recipient, 404 to a stranger and anonymous visitors of a private personality', async () => {
    const listings = v.openai.modelListings;
    expect((await warm(stranger, privateId)).status).toBe(404);
    expect((await warm(v.server.client(), privateId)).status).toBe(404);
    // Nothing was warmed for them.
    expect(v.openai.modelListings).toBe(listings);
    expect((await warm(owner, privateId)).status).toBe(204);
    expect((await warm(recipient, privateId)).status).toBe(204);
    expect(v.openai.modelListings).toBe(listings + 2);
    // A public personality: anonymous visitors may talk with it, so they may warm it.
    expect((await warm(v.server.client(), publicId)).status).toBe(204);
  });

  it('spends no transcription, speech or model call and saves nothing', async () => {
    const before = { stt: v.openai.transcriptions.length, tts: v.openai.speeches.length, chat: v.openai.chatRequests.length };
    const res = await warm(owner, publicId);
    expect(res.status).toBe(204);
    // Server-Timing names its phases like the other voice routes.
    expect(res.headers.get('server-timing')).toMatch(/access;dur=.*warm;dur=/);
    expect({ stt: v.openai.transcriptions.length, tts: v.openai.speeches.length, chat: v.openai.chatRequests.length }).toEqual(before);
    expect((await owner.get(`/api/personalities/${publicId}/conversations`)).body.conversations).toEqual([]);
    expect((await owner.get(`/api/personalities/${publicId}/questions`)).body.questions).toEqual([]);
  });

  it('is rate-limited per person with the voice message, in its own window (transcription unaffected)', async () => {
    const someone = await v.server.user();
    for (let i = 0; i < MAX; i++) expect((await warm(someone, publicId)).status).toBe(204);
    const limited = await warm(someone, publicId);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'VOICE_RATE_LIMITED', message: messages.voice.rateLimited });
    expect((await transcribe(someone, publicId, toneWav16(0.3))).status).toBe(200);
  });
});
