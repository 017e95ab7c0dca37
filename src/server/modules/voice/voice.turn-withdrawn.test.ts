// Open mic withdraws a turn when the person goes on speaking before its reply began, and sends its
// audio again joined to what followed. A turn whose request was cancelled while its exchange was
// still being prepared (transcribed, the question being embedded for retrieval) must therefore
// leave nothing saved: otherwise the first half is saved as a question of its own, unanswered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { createPersonality } from '../conversations/conversations.test-support';
import { uploadOne, waitForDocument } from '../documents/documents.test-support';
import { startVoiceServer, toneWav16, voiceTurn, type VoiceTestServer } from './voice.test-support';

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let personalityId: string;

beforeAll(async () => {
  // Retrieval embeds the question with the fake's model: holding that request holds the exchange's preparation.
  v = await startVoiceServer({ env: { EMBEDDING_MODEL: 'fake-embedding' } }, { chatModel: true });
  owner = await v.server.user();
  personalityId = await createPersonality(owner, 'Pausing Ada', { voiceProvider: 'openai', voice: 'nova' });
  const docId = await uploadOne(owner, personalityId, { name: 'notes.txt', data: 'Ada wrote notes on the Analytical Engine in 1843.' });
  expect((await waitForDocument(owner, personalityId, docId, ['ready', 'failed'], 30_000)).status).toBe('ready');
});
afterAll(async () => {
  await v?.close();
});

describe('a voice turn withdrawn while its exchange is prepared', () => {
  it('saves nothing: no conversation, no question', async () => {
    v.openai.setAudio({ transcript: 'What did you do yesterday' });
    const embeddingsBefore = v.openai.requests.length;
    v.openai.set({ hold: true });
    const withdraw = new AbortController();
    const answer = voiceTurn(owner, personalityId, toneWav16(1), undefined, withdraw.signal).catch(() => 'withdrawn');
    // Transcribed; the question's embedding is asked for (and held): withdraw now.
    const until = Date.now() + 15_000;
    while (v.openai.requests.length === embeddingsBefore && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(v.openai.requests.length).toBeGreaterThan(embeddingsBefore);
    withdraw.abort();
    expect(await answer).toBe('withdrawn');
    v.openai.set({ hold: false });
    // Long enough for a preparation that went on to save what it had.
    await new Promise((r) => setTimeout(r, 1500));

    const conversations = (await owner.get(`/api/personalities/${personalityId}/conversations`)).body.conversations as { id: string }[];
    for (const c of conversations) {
      const messages = (await owner.get(`/api/conversations/${c.id}`)).body.conversation.messages as { content: string }[];
      expect(messages.map((m) => m.content)).not.toContain('What did you do yesterday');
    }
  });
});
