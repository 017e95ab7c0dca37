// Who may use voice: every voice route as anonymous, signed-in stranger, share recipient, owner
// and admin, on a private (shared) personality and on a public one; admin monitoring admin-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { createPersonality, makePublic, shareDirectly } from '../conversations/conversations.test-support';
import { speak, startVoiceServer, toneWav16, transcribe, type VoiceTestServer } from './voice.test-support';

const ADMIN_EMAIL = 'voice-admin@example.com';
let v: VoiceTestServer;
let anonymous: TestClient;
let stranger: TestClient & { id: string };
let recipient: TestClient & { id: string };
let owner: TestClient & { id: string };
let admin: TestClient & { id: string };
let privateId: string;
let publicId: string;

beforeAll(async () => {
  v = await startVoiceServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
  const s = v.server;
  anonymous = s.client();
  [stranger, recipient, owner, admin] = await Promise.all([s.user(), s.user(), s.user(), s.user(ADMIN_EMAIL)]);
  privateId = await createPersonality(owner, 'Private Voice', { voiceProvider: 'openai', voice: 'nova' });
  await shareDirectly(s.database.db, privateId, owner.id, recipient.id);
  publicId = await createPersonality(owner, 'Public Voice', { voiceProvider: 'openai', voice: 'onyx' });
  await makePublic(s.database.db, publicId);
});
afterAll(async () => {
  await v?.close();
});

type Actor = 'anonymous' | 'stranger' | 'recipient' | 'owner' | 'admin';
const actors = (): Record<Actor, TestClient> => ({ anonymous, stranger, recipient, owner, admin });

async function matrix(call: (c: TestClient) => Promise<{ status: number }>): Promise<Record<Actor, number>> {
  const got = {} as Record<Actor, number>;
  for (const [name, client] of Object.entries(actors()) as [Actor, TestClient][]) got[name] = (await call(client)).status;
  return got;
}

const seeing = { anonymous: 404, stranger: 404, recipient: 200, owner: 200, admin: 404 };
const everyone = { anonymous: 200, stranger: 200, recipient: 200, owner: 200, admin: 200 };

describe('voice routes: whoever may see the personality', () => {
  it('transcribe: private refuses anonymous, strangers and admins (404); public is open to all', async () => {
    const before = v.openai.transcriptions.length;
    expect(await matrix((c) => transcribe(c, privateId, toneWav16()))).toEqual(seeing);
    // Refused callers never reached the provider: only the recipient's and the owner's did.
    expect(v.openai.transcriptions.length - before).toBe(2);
    expect(await matrix((c) => transcribe(c, publicId, toneWav16()))).toEqual(everyone);
    const ok = await transcribe(anonymous, publicId, toneWav16());
    expect(ok.body).toEqual({ text: 'Hello, who are you?', engine: 'openai', approximate: false });
  });

  it('speech: the same rule', async () => {
    expect(await matrix((c) => speak(c, privateId, 'Hello there.'))).toEqual(seeing);
    expect(await matrix((c) => speak(c, publicId, 'Hello there.'))).toEqual(everyone);
  });

  it('unknown or malformed ids look the same as invisible ones', async () => {
    const none = { anonymous: 404, stranger: 404, recipient: 404, owner: 404, admin: 404 };
    expect(await matrix((c) => transcribe(c, 'not-a-uuid', toneWav16()))).toEqual(none);
    expect(await matrix((c) => speak(c, '00000000-0000-4000-8000-000000000000', 'Hi.'))).toEqual(none);
  });

  it('capabilities are open to everyone (no user data)', async () => {
    expect(await matrix((c) => c.get('/api/voice/capabilities'))).toEqual(everyone);
    const caps = await anonymous.get('/api/voice/capabilities');
    expect(caps.body).toEqual({
      stt: { available: true, engine: 'openai', approximate: false },
      tts: { default: 'embedded', openai: true, elevenlabs: true },
      cloning: { available: true },
      limits: { maxRecordingSeconds: 60, maxAudioBytes: 10 * 1024 * 1024 },
      openMic: { endOfTurnMs: 900, agents: true },
    });
  });

  it('admin monitoring: anonymous 401, everyone else but the admin 403', async () => {
    for (const path of ['/api/admin/monitoring/voice-usage', '/api/admin/monitoring/rate-limits']) {
      expect(await matrix((c) => c.get(path)), path).toEqual({ anonymous: 401, stranger: 403, recipient: 403, owner: 403, admin: 200 });
    }
  });
});
