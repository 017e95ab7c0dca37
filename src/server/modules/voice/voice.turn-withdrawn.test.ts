// Open mic withdraws a turn when the person goes on speaking before its reply began, and sends its
// audio again joined to what followed. A turn whose request was cancelled while its exchange was
// still being prepared (transcribed, the question being embedded for retrieval) must therefore
// leave nothing saved: otherwise the first half is saved as a question of its own, unanswered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { createPersonality } from '../conversations/conversations.test-support';
import { uploadOne, waitForDocument } from '../documents/documents.test-support';
import { shareWith } from '../sharing/sharing.test-support';
import { createTurnStreamParser, type VoiceTurnEvent } from '../../../shared/voice-turn-stream';
import { startVoiceServer, toneWav16, voiceTurn, voiceTurnEvents, type VoiceTestServer } from './voice.test-support';

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

/** A turn whose cancel reaches the server just after its exchange began (the answer's `start` line). */
async function lateCancelledTurn(client: TestClient, request: Record<string, unknown>): Promise<string | null> {
  v.openai.chatSettings.firstTokenDelayMs = 3000;
  const cancel = new AbortController();
  const res = await voiceTurn(client, personalityId, toneWav16(1), request, cancel.signal);
  const reader = res.body!.getReader();
  const parser = createTurnStreamParser();
  const decoder = new TextDecoder();
  let started: VoiceTurnEvent | undefined;
  while (!started) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the turn ended before its exchange began');
    started = parser.feed(decoder.decode(value, { stream: true })).find((e) => e.type === 'start');
  }
  cancel.abort();
  v.openai.chatSettings.firstTokenDelayMs = 0;
  // What a cancelled exchange keeps is saved as it stops (callers poll for it: one statement, but
  // not awaited by anything they can see).
  await new Promise((r) => setTimeout(r, 500));
  return started.type === 'start' ? started.conversationId : null;
}

async function contentsOf(client: TestClient, conversationId: string): Promise<string[]> {
  const res = await client.get(`/api/conversations/${conversationId}`);
  expect(res.status).toBe(200);
  return (res.body.conversation.messages as { content: string; sender: string }[]).filter((m) => m.sender === 'user').map((m) => m.content);
}

describe('a voice turn whose cancel arrived as its exchange began (a late withdrawal)', () => {
  const firstHalf = 'What did you do yesterday';
  const joined = 'What did you do yesterday and where did you go after that?';

  it('is removed by the turn that carries its audio (`replaces`): the conversation holds one question, and the prompt does not repeat it', async () => {
    v.openai.setAudio({ transcript: 'Hello there' });
    const opening = await voiceTurnEvents(owner, personalityId, toneWav16(1), { turnId: crypto.randomUUID() });
    const start = opening.events.find((e) => e.type === 'start');
    const conversationId = start?.type === 'start' ? start.conversationId! : '';
    expect(conversationId).not.toBe('');

    v.openai.setAudio({ transcript: firstHalf });
    const withdrawn = crypto.randomUUID();
    await lateCancelledTurn(owner, { conversationId, turnId: withdrawn });
    // What a late cancel leaves without `replaces`: the first half as a question of its own.
    await expect.poll(() => contentsOf(owner, conversationId)).toEqual(['Hello there', firstHalf]);

    v.openai.setAudio({ transcript: joined });
    const chatsBefore = v.openai.chatRequests.length;
    const answer = await voiceTurnEvents(owner, personalityId, toneWav16(2), { conversationId, turnId: crypto.randomUUID(), replaces: [withdrawn] });
    expect(answer.events.some((e) => e.type === 'done')).toBe(true);
    expect(await contentsOf(owner, conversationId)).toEqual(['Hello there', joined]);
    const prompt = v.openai.chatRequests.slice(chatsBefore).at(-1)!.body.messages!.map((m) => m.content);
    expect(prompt.filter((c) => c === firstHalf)).toEqual([]);
    expect(prompt.at(-1)).toBe(joined);
  });

  it('a conversation the withdrawn turn had started (the page never learnt its id) goes with it', async () => {
    v.openai.setAudio({ transcript: firstHalf });
    const withdrawn = crypto.randomUUID();
    const started = await lateCancelledTurn(owner, { turnId: withdrawn });
    expect(started).not.toBeNull();
    await expect.poll(() => contentsOf(owner, started!)).toEqual([firstHalf]);

    v.openai.setAudio({ transcript: joined });
    const answer = await voiceTurnEvents(owner, personalityId, toneWav16(2), { turnId: crypto.randomUUID(), replaces: [withdrawn] });
    const start = answer.events.find((e) => e.type === 'start');
    const kept = start?.type === 'start' ? start.conversationId! : '';
    expect(kept).not.toBe(started);
    expect(await contentsOf(owner, kept)).toEqual([joined]);
    expect((await owner.get(`/api/conversations/${started}`)).status).toBe(404);
  });

  it("naming another person's turn removes nothing of theirs", async () => {
    v.openai.setAudio({ transcript: firstHalf });
    const theirs = crypto.randomUUID();
    const ownersConversation = await lateCancelledTurn(owner, { turnId: theirs });
    await expect.poll(() => contentsOf(owner, ownersConversation!)).toEqual([firstHalf]);
    const stranger = await v.server.user();
    await shareWith(owner, personalityId, stranger.email);
    v.openai.setAudio({ transcript: joined });
    const answer = await voiceTurnEvents(stranger, personalityId, toneWav16(2), { turnId: crypto.randomUUID(), replaces: [theirs] });
    expect(answer.events.some((e) => e.type === 'done')).toBe(true);
    expect(await contentsOf(owner, ownersConversation!)).toEqual([firstHalf]);
  });

  it('refuses ids that are not UUIDs, and more than the bound', async () => {
    const bad = await voiceTurnEvents(owner, personalityId, toneWav16(1), { turnId: 'not-an-id' });
    expect(bad.status).toBe(400);
    const many = Array.from({ length: 17 }, () => crypto.randomUUID());
    expect((await voiceTurnEvents(owner, personalityId, toneWav16(1), { turnId: crypto.randomUUID(), replaces: many })).status).toBe(400);
  });
});
