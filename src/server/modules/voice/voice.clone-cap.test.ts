// Cloned voices per account (VOICE_CLONES_PER_ACCOUNT, default 5): each clone holds a voice slot
// of the operator's ElevenLabs plan. A clone past the cap is refused (409, with the message) before
// the sample reaches ElevenLabs; replacing a personality's own clone is no extra; deleting a cloned
// personality, or switching it to another voice, frees its slot (a switched-away clone still kept
// at ElevenLabs is removed when a new clone needs its slot, so the account never holds more).
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { personalities } from '../../db/schema/personalities';
import { messages } from '../../../shared/messages';
import { loadConfig } from '../../config';
import { silentMp3 } from '../../../../tests/fakes/fake-audio';
import { createPersonality } from '../conversations/conversations.test-support';
import { postFileForm } from '../documents/documents.test-support';
import { startVoiceServer, type VoiceTestServer } from './voice.test-support';

const CAP = 5; // the default: the server below does not set it
let v: VoiceTestServer;

beforeAll(async () => {
  v = await startVoiceServer({ env: { RATE_LIMIT_VOICE_CLONE_PER_HOUR: '1000' } });
});
afterAll(async () => {
  await v?.close();
});

function clone(client: TestClient, personalityId: string) {
  return postFileForm(client, `/api/personalities/${personalityId}/voice/clone`, 'sample', { name: 'voice.mp3', data: silentMp3(3) }, { consent: 'true' });
}

async function clonedPersonalities(owner: TestClient & { id: string }, count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = await createPersonality(owner, `${prefix} ${i + 1}`);
    const res = await clone(owner, id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids.push(id);
  }
  return ids;
}

/** Clones the account keeps at ElevenLabs (a custom voice id on one of its personalities). */
async function clonesHeld(ownerId: string): Promise<number> {
  const rows = await v.server.database.db
    .select({ id: personalities.id })
    .from(personalities)
    .where(and(eq(personalities.userId, ownerId), isNotNull(personalities.customVoiceId)));
  return rows.length;
}

describe('cloned voices per account', () => {
  it('refuses the 6th clone with a clear message, before the sample reaches ElevenLabs; another account still clones', async () => {
    const owner = await v.server.user();
    await clonedPersonalities(owner, CAP, 'Voice');
    const sixth = await createPersonality(owner, 'One Too Many');
    const sent = v.elevenlabs.clones.length;
    const refused = await clone(owner, sixth);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'CONFLICT', message: messages.voice.cloneLimitReached(CAP) });
    expect(v.elevenlabs.clones.length).toBe(sent);
    expect((await owner.get(`/api/personalities/${sixth}`)).body.personality).toMatchObject({ voiceProvider: 'default', customVoiceId: null });

    const other = await v.server.user();
    await clonedPersonalities(other, 1, 'Other');
  });

  it("replacing a personality's own clone at the cap is no extra", async () => {
    const owner = await v.server.user();
    const ids = await clonedPersonalities(owner, CAP, 'Replace');
    const first = (await owner.get(`/api/personalities/${ids[0]}`)).body.personality.customVoiceId as string;
    const again = await clone(owner, ids[0]!);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.personality.customVoiceId).not.toBe(first);
    expect(v.elevenlabs.deletedVoices).toContain(first);
    expect(await clonesHeld(owner.id)).toBe(CAP);
  });

  it('deleting a cloned personality frees its slot', async () => {
    const owner = await v.server.user();
    const ids = await clonedPersonalities(owner, CAP, 'Delete');
    const next = await createPersonality(owner, 'Next');
    expect((await clone(owner, next)).status).toBe(409);
    expect((await owner.delete(`/api/personalities/${ids[1]}`)).status).toBe(200);
    expect((await clone(owner, next)).status).toBe(201);
    expect(await clonesHeld(owner.id)).toBe(CAP);
  });

  it('switching a cloned personality to another voice frees its slot; its kept clone is removed when a new one needs the slot', async () => {
    const owner = await v.server.user();
    const ids = await clonedPersonalities(owner, CAP, 'Switch');
    const switched = ids[2]!;
    const kept = (await owner.get(`/api/personalities/${switched}`)).body.personality.customVoiceId as string;
    const patched = await owner.patch(`/api/personalities/${switched}`, { voiceProvider: 'openai', voice: 'nova' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const next = await createPersonality(owner, 'Next');
    const res = await clone(owner, next);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The account still holds no more than the cap at ElevenLabs: the switched-away clone went.
    expect(v.elevenlabs.deletedVoices).toContain(kept);
    expect((await owner.get(`/api/personalities/${switched}`)).body.personality).toMatchObject({ voiceProvider: 'openai', customVoiceId: null });
    expect(await clonesHeld(owner.id)).toBe(CAP);
  });

  it('below the cap a switched-away clone is kept (the owner may switch back)', async () => {
    const owner = await v.server.user();
    const [id] = await clonedPersonalities(owner, 1, 'Keep');
    const kept = (await owner.get(`/api/personalities/${id}`)).body.personality.customVoiceId as string;
    expect((await owner.patch(`/api/personalities/${id}`, { voiceProvider: 'openai', voice: 'nova' })).status).toBe(200);
    await clonedPersonalities(owner, 2, 'More');
    expect(v.elevenlabs.deletedVoices).not.toContain(kept);
    expect((await owner.get(`/api/personalities/${id}`)).body.personality.customVoiceId).toBe(kept);
  });

  it('concurrent clones at the edge: only those that fit are kept, the extra ones made are removed at ElevenLabs', async () => {
    const owner = await v.server.user();
    await clonedPersonalities(owner, CAP - 1, 'Edge');
    const ids = await Promise.all([1, 2, 3].map((i) => createPersonality(owner, `Racer ${i}`)));
    const before = v.elevenlabs.clones.length;
    const results = await Promise.all(ids.map((id) => clone(owner, id)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await clonesHeld(owner.id)).toBe(CAP);
    // Whatever was made at ElevenLabs for the refused ones is removed again.
    const made = v.elevenlabs.clones.slice(before).map((c) => c.voiceId!);
    const winner = results.find((r) => r.status === 201)!.body.personality.customVoiceId as string;
    for (const voiceId of made.filter((m) => m !== winner)) expect(v.elevenlabs.deletedVoices).toContain(voiceId);
  });
});

describe('the setting', () => {
  it('defaults to 5; 0 is no cap', () => {
    expect(loadConfig({}).voice.clonesPerAccount).toBe(5);
    expect(loadConfig({ VOICE_CLONES_PER_ACCOUNT: '0' }).voice.clonesPerAccount).toBe(0);
  });
});
