// Open mic with an ElevenLabs agent, server side: the signed URL comes from the loopback fake
// through the official SDK (the API key stays on the server); who may ask; the spec's agent-id
// message; the lines of a call land in the caller's saved conversation and the agent's words
// count toward the daily voice credits.
import { AGENT_CHARS_PER_SECOND, AGENT_FIRST_LINE_CHARS, createAgentCallCredits } from './agent-call-credits';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import WebSocket from 'ws';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { startVoiceServer, type VoiceTestServer } from './voice.test-support';

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let stranger: TestClient & { id: string };
let agentPersonality: string;
let plainPersonality: string;

beforeAll(async () => {
  v = await startVoiceServer({ env: { VOICE_DAILY_CREDIT_LIMIT: '200' } });
  owner = await v.server.user();
  stranger = await v.server.user();
  agentPersonality = await createPersonality(owner, 'Ada on the phone', { voiceProvider: 'elevenlabs', agentId: 'agent_ada_123' });
  plainPersonality = await createPersonality(owner, 'No agent', { voiceProvider: 'elevenlabs' });
});
afterAll(async () => {
  await v?.close();
});

const session = (client: TestClient, id: string) => client.post(`/api/personalities/${id}/voice/agent/session`);
const line = (client: TestClient, id: string, body: unknown) => client.post(`/api/personalities/${id}/voice/agent/transcript`, body);

describe('the signed URL', () => {
  it('comes from get-signed-url with the server key, opens the convai websocket, and never carries the key', async () => {
    v.elevenlabs.convai.set({ fail: 'none' });
    const res = await session(owner, agentPersonality);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(v.elevenlabs.convai.record.signedUrlRequests.at(-1)).toEqual({ agentId: 'agent_ada_123', apiKey: 'fake-elevenlabs-key' });
    const signedUrl: string = res.body.signedUrl;
    expect(signedUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/convai\/conversation\?agent_id=agent_ada_123&conversation_signature=/);
    expect(JSON.stringify(res.body)).not.toContain('fake-elevenlabs-key');

    // The URL really opens a conversation: metadata first, then the greeting.
    const ws = new WebSocket(signedUrl, ['convai']);
    const events: any[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ type: 'conversation_initiation_client_data' })));
      ws.on('message', (d) => {
        events.push(JSON.parse(String(d)));
        if (events.some((e) => e.type === 'agent_response')) resolve();
      });
      ws.on('error', reject);
    });
    ws.close(1000);
    expect(ws.protocol).toBe('convai');
    expect(events[0].type).toBe('conversation_initiation_metadata');
    expect(events[0].conversation_initiation_metadata_event.agent_output_audio_format).toBe('pcm_16000');
  });

  it('refuses without an agent id with the spec message, and a stranger gets 404 for a private personality', async () => {
    const none = await session(owner, plainPersonality);
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'AGENT_ID_REQUIRED', message: messages.openMic.agentIdRequired });
    const before = v.elevenlabs.convai.record.signedUrlRequests.length;
    expect((await session(stranger, agentPersonality)).status).toBe(404);
    expect((await session(v.server.client(), agentPersonality)).status).toBe(404);
    expect(v.elevenlabs.convai.record.signedUrlRequests.length).toBe(before);
  });

  it('lets an anonymous visitor call a public agent', async () => {
    const id = await createPersonality(owner, 'Public agent', { voiceProvider: 'elevenlabs', agentId: 'agent_public' });
    await makePublic(v.server.database.db, id);
    const res = await session(v.server.client(), id);
    expect(res.status).toBe(200);
    expect(res.body.signedUrl).toContain('agent_id=agent_public');
    // Their transcript stays in their tab: nothing is saved for them on the server.
    const spoken = await line(v.server.client(), id, { conversationId: null, role: 'user', content: 'Hi there' });
    expect(spoken.body).toEqual({ conversationId: null, saved: false, creditsExhausted: false, withheld: false });
  });

  it('reports an empty answer as "No signed URL returned from server" and an unknown agent as a failure', async () => {
    v.elevenlabs.convai.set({ fail: 'no_signed_url' });
    const empty = await session(owner, agentPersonality);
    expect(empty.status).toBe(502);
    expect(empty.body.error.message).toBe(messages.openMic.noSignedUrl);
    v.elevenlabs.convai.set({ fail: 'unknown_agent' });
    const unknown = await session(owner, agentPersonality);
    expect(unknown.status).toBe(502);
    expect(unknown.body.error.message).toContain('agent_ada_123 not found');
    v.elevenlabs.convai.set({ fail: 'none' });
  });
});

describe('the lines of a call', () => {
  it('go into a new saved conversation (titled by the first thing said), then into the same one', async () => {
    const first = await line(owner, agentPersonality, { conversationId: null, role: 'user', content: 'Tell me about the engine' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const conversationId = first.body.conversationId;
    expect(first.body.saved).toBe(true);
    const second = await line(owner, agentPersonality, { conversationId, role: 'assistant', content: 'It computes.' });
    expect(second.body.conversationId).toBe(conversationId);
    const saved = await owner.get(`/api/conversations/${conversationId}`);
    expect(saved.body.conversation.title).toBe('Tell me about the engine');
    expect(saved.body.conversation.messages.map((m: any) => [m.sender, m.content])).toEqual([
      ['personality', expect.any(String)],
      ['user', 'Tell me about the engine'],
      ['personality', 'It computes.'],
    ]);
  });

  it("refuses another person's conversation and bad bodies", async () => {
    const mine = await line(owner, agentPersonality, { conversationId: null, role: 'user', content: 'Hello' });
    const theirs = await line(stranger, agentPersonality, { conversationId: mine.body.conversationId, role: 'user', content: 'x' });
    expect(theirs.status).toBe(404);
    expect((await line(owner, agentPersonality, { conversationId: null, role: 'system', content: 'x' })).status).toBe(400);
    expect((await line(owner, agentPersonality, { conversationId: null, role: 'user', content: '   ' })).status).toBe(400);
  });

  it('counts the agent words as credits; at the daily limit new calls are refused', async () => {
    const usage = async () => (await v.server.database.db.execute(`select coalesce(sum(credits_used),0)::int as n from elevenlabs_usage`) as any).rows[0].n as number;
    const before = await usage();
    const anon = await line(v.server.client(), agentPersonality, { conversationId: null, role: 'assistant', content: 'x'.repeat(50) });
    // A private personality: an anonymous visitor is refused before anything is counted.
    expect(anon.status).toBe(404);
    const { callToken } = (await session(owner, agentPersonality)).body;
    const res = await line(owner, agentPersonality, { conversationId: null, role: 'assistant', content: 'y'.repeat(250), callToken });
    expect(res.status).toBe(200);
    expect(res.body.creditsExhausted).toBe(true);
    expect((await usage()) - before).toBe(250);
    const refused = await session(owner, agentPersonality);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(messages.voice.creditsExhausted);
    // The site's limit, as the speech route says it (a visitor's own budget says perVisitor).
    expect(refused.body.error.details).toEqual({ dailyLimit: expect.any(Number) });
  });
});

describe('credits of an agent call', () => {
  it('counts only lines sent under a call token, and no faster than speech: a forged report cannot spend the day', async () => {
    const w = await startVoiceServer({ env: { VOICE_DAILY_CREDIT_LIMIT: '1000000' } });
    onTestFinished(() => w.close());
    const talkerOwner = await w.server.user();
    const otherAgent = await createPersonality(talkerOwner, 'Other agent', { voiceProvider: 'elevenlabs', agentId: 'agent_other' });
    await makePublic(w.server.database.db, otherAgent);
    const usage = async () => (await w.server.database.db.execute(`select coalesce(sum(credits_used),0)::int as n from elevenlabs_usage`) as any).rows[0].n as number;
    const before = await usage();
    const id = await createPersonality(talkerOwner, 'Public talker', { voiceProvider: 'elevenlabs', agentId: 'agent_talker' });
    await makePublic(w.server.database.db, id);
    const visitor = w.server.client();
    // No call: nothing counted, however long the line.
    expect((await line(visitor, id, { conversationId: null, role: 'assistant', content: 'z'.repeat(10_000) })).status).toBe(200);
    expect(await usage()).toBe(before);
    // A real call's token: the first lines count as said, but five 10,000-character lines at once
    // count no more than a voice could have said since the call began.
    const { callToken } = (await session(visitor, id)).body;
    expect(typeof callToken).toBe('string');
    for (let i = 0; i < 5; i++) await line(visitor, id, { conversationId: null, role: 'assistant', content: 'z'.repeat(10_000), callToken });
    const counted = (await usage()) - before;
    expect(counted).toBeGreaterThanOrEqual(AGENT_FIRST_LINE_CHARS);
    expect(counted).toBeLessThan(AGENT_FIRST_LINE_CHARS + 30 * AGENT_CHARS_PER_SECOND);
    // Another asker's token, or one for another personality, counts nothing.
    const after = await usage();
    await line(talkerOwner, id, { conversationId: null, role: 'assistant', content: 'z'.repeat(100), callToken });
    await line(visitor, otherAgent, { conversationId: null, role: 'assistant', content: 'z'.repeat(100), callToken });
    expect(await usage()).toBe(after);

    // The tally is the database's, not this process's: another app process on the same database,
    // handed the same token a moment later, finds the call's share already spent.
    const db = w.server.database.db;
    const tallies = (await db.execute(`select chars from agent_call_tallies`) as any).rows as { chars: number }[];
    expect(tallies).toEqual([{ chars: counted }]);
    const otherProcess = createAgentCallCredits('test-secret-test-secret-test-secret-0123456789');
    const issuedAt = JSON.parse(Buffer.from(String(callToken).split('.')[0]!, 'base64url').toString()).issuedAt as number;
    // A minute into the call: six lines at once from that process add up to the minute's share.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, () => otherProcess.charge(db, callToken, id, null, 10_000, issuedAt + 60_000)),
    );
    expect(counted + parallel.reduce((a, b) => a + b, 0)).toBe(AGENT_FIRST_LINE_CHARS + 60 * AGENT_CHARS_PER_SECOND);

    // A process whose clock is a minute behind the one that issued the token (the call's lines may
    // go to either) still counts them: the first line's share, not nothing.
    const lateClockCall = otherProcess.issue(id, null, issuedAt);
    expect(await otherProcess.charge(db, lateClockCall, id, null, 300, issuedAt - 60_000)).toBe(300);
  });

});

describe('the content security policy', () => {
  it("lets the page open the agent's websocket (and only that one) and compile the VAD's WebAssembly", async () => {
    const res = await v.server.client().raw('/api/health');
    const csp = res.headers.get('content-security-policy') ?? '';
    const eleven = new URL(v.elevenlabs.url);
    expect(csp).toContain(`connect-src 'self' ws://${eleven.host}`);
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(csp).not.toContain("'unsafe-eval'");
  });
});
