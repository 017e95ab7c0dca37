// Instant voice cloning through the official ElevenLabs SDK against the loopback fake: the owner's
// sample (checked by its bytes, 11 MB at most) and consent go in, the personality then speaks with
// the clone, the consent is stored; the spec's errors; the clone goes when the personality does.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { startTestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { silentMp3 } from '../../../../tests/fakes/fake-audio';
import { createPersonality } from '../conversations/conversations.test-support';
import { postFileForm } from '../documents/documents.test-support';
import { speak, startVoiceServer, toneWav16, type VoiceTestServer } from './voice.test-support';

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let stranger: TestClient;

beforeAll(async () => {
  v = await startVoiceServer();
  owner = await v.server.user();
  stranger = await v.server.user();
});
afterAll(async () => {
  await v?.close();
});

function clone(client: TestClient, personalityId: string, sample: Uint8Array | string | undefined, fields: Record<string, string> = { consent: 'true' }) {
  const file = sample === undefined ? undefined : { name: 'my voice.mp3', data: sample };
  return postFileForm(client, `/api/personalities/${personalityId}/voice/clone`, 'sample', file, fields);
}

describe('cloning a voice', () => {
  it('sends the sample to /v1/voices/add, switches the personality to the clone, stores the consent; speech uses it', async () => {
    const id = await createPersonality(owner, 'Grandad');
    v.elevenlabs.set({ cloneFail: 'none' });
    const sample = silentMp3(20);
    const res = await clone(owner, id, sample, { consent: 'true', name: 'Grandad Angus', description: 'Warm, slow Highland voice' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const sent = v.elevenlabs.clones.at(-1)!;
    expect(sent).toMatchObject({ apiKey: 'fake-elevenlabs-key', name: 'Grandad Angus', description: 'Warm, slow Highland voice' });
    expect(sent.files).toEqual([{ fileName: 'sample.mp3', mimeType: 'audio/mpeg', bytes: sample.length, head: Buffer.from(sample.subarray(0, 4)).toString('latin1') }]);
    expect(res.body.personality).toMatchObject({
      voiceProvider: 'elevenlabs',
      customVoiceId: sent.voiceId,
      voice: sent.voiceId,
      voiceSettings: { voice_id: sent.voiceId, provider: 'elevenlabs', voice_type: 'custom' },
    });

    const consent = (await v.server.database.db.execute(sql`select user_id, voice_id, voice_name, consent_text from voice_clone_consents where personality_id = ${id}`)) as unknown as {
      rows: { user_id: string; voice_id: string; voice_name: string; consent_text: string }[];
    };
    expect(consent.rows).toEqual([{ user_id: owner.id, voice_id: sent.voiceId, voice_name: 'Grandad Angus', consent_text: messages.voice.cloneConsentText }]);

    const spoken = await speak(owner, id, 'Hello, my dear.');
    expect(spoken.status).toBe(200);
    expect(v.elevenlabs.requests.at(-1)!.voiceId).toBe(sent.voiceId);

    await test2ndCloneReplacesFirst(id, sent.voiceId!);
  });

  async function test2ndCloneReplacesFirst(id: string, first: string) {
    const again = await clone(owner, id, toneWav16(3));
    expect(again.status).toBe(201);
    const second = v.elevenlabs.clones.at(-1)!;
    expect(second.files[0]).toMatchObject({ fileName: 'sample.wav', mimeType: 'audio/wav' });
    expect(again.body.personality.customVoiceId).toBe(second.voiceId);
    // The replaced clone is removed at the provider; deleting the personality removes the new one.
    expect(v.elevenlabs.deletedVoices).toContain(first);
    expect((await owner.delete(`/api/personalities/${id}`)).status).toBe(200);
    expect(v.elevenlabs.deletedVoices).toContain(second.voiceId);
  }

  it('refuses without consent, without a sample, a sample that is not audio, and one over 11 MB; nothing reaches ElevenLabs', async () => {
    const id = await createPersonality(owner, 'Nan');
    const before = v.elevenlabs.clones.length;
    expect(await clone(owner, id, silentMp3(5), {})).toMatchObject({ status: 400, body: { error: { message: messages.voice.cloneConsentRequired } } });
    expect(await clone(owner, id, undefined)).toMatchObject({ status: 400, body: { error: { message: messages.voice.cloneNoFile } } });
    expect(await clone(owner, id, 'not audio at all')).toMatchObject({ status: 400, body: { error: { message: messages.documents.audioType } } });
    const big = new Uint8Array(12 * 1024 * 1024);
    big.set(silentMp3(1));
    expect(await clone(owner, id, big)).toMatchObject({ status: 413, body: { error: { message: messages.voice.cloneTooLarge } } });
    expect(v.elevenlabs.clones.length).toBe(before);
    const p = await owner.get(`/api/personalities/${id}`);
    expect(p.body.personality.customVoiceId).toBeNull();
  });

  it('only the owner clones: anonymous 401, a stranger 404', async () => {
    const id = await createPersonality(owner, 'Private');
    expect((await clone(v.server.client(), id, silentMp3(5))).status).toBe(401);
    expect((await clone(stranger, id, silentMp3(5))).status).toBe(404);
  });

  it('"ElevenLabs Subscription Required" when the plan has no instant cloning; "Voice Training Failed" with the reason otherwise', async () => {
    const id = await createPersonality(owner, 'Plan');
    v.elevenlabs.set({ cloneFail: 'subscription' });
    const sub = await clone(owner, id, silentMp3(5));
    expect(sub.status).toBe(402);
    expect(sub.body.error).toMatchObject({ code: 'CLONE_SUBSCRIPTION', message: messages.voice.cloneSubscription });
    expect(sub.body.error.details.reason).toMatch(/instant voice cloning/);
    v.elevenlabs.set({ cloneFail: 'server_error' });
    const failed = await clone(owner, id, silentMp3(5));
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toBe(messages.voice.cloneFailedReason('An internal server error occurred.'));
    v.elevenlabs.set({ cloneFail: 'none' });
    // The default voices remain: the personality is unchanged.
    const p = await owner.get(`/api/personalities/${id}`);
    expect(p.body.personality).toMatchObject({ voiceProvider: 'default', customVoiceId: null });
  });
});

describe('without an ElevenLabs key', () => {
  it('capabilities say how to configure cloning, and the route refuses (503) before reading the sample', async () => {
    const s = await startTestServer();
    try {
      const o = await s.user();
      const id = await createPersonality(o, 'Keyless');
      const caps = await s.client().get('/api/voice/capabilities');
      expect(caps.body.cloning).toEqual({ available: false, howToConfigure: messages.voice.cloneNotConfigured });
      expect(await clone(o, id, silentMp3(5))).toMatchObject({ status: 503, body: { error: { message: messages.voice.cloneNotConfigured } } });
    } finally {
      await s.close();
    }
  });
});
