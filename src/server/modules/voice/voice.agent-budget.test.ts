// An ElevenLabs agent call spends the same per-visitor daily budget of paid-voice characters
// (VOICE_DAILY_CHARACTERS_PER_VISITOR) as the speech route: a visitor at it is refused a new call
// before ElevenLabs is asked for a signed URL, and the agent's lines (as charged to the call, no
// faster than speech) count toward the visitor who started the call, whose token names them, so
// a changed address does not start a fresh budget. 0 turns the budget off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createTokenSigner } from '../../lib/signed-token';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { AGENT_FIRST_LINE_CHARS } from './agent-call-credits';
import { speak, startVoiceServer, type VoiceTestServer } from './voice.test-support';

/** Set through config: well under the 20,000 default, so only the configured value can refuse. */
const BUDGET = 1000;
// A clock the test moves: an agent line counts no faster than speech since its call began.
const clock = { at: Date.UTC(2032, 5, 10, 9, 0, 0), now: () => new Date(clock.at) };
const later = (seconds: number) => void (clock.at += seconds * 1000);

const unlimited = { VOICE_DAILY_CREDIT_LIMIT: '100000000', RATE_LIMIT_CHAT_PER_MINUTE: '10000', TRUSTED_PROXIES: '127.0.0.1' };

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let agentId: string;
let elevenVoiceId: string;

beforeAll(async () => {
  // 127.0.0.1 is the trusted proxy: each test names its visitor's address in X-Forwarded-For.
  v = await startVoiceServer({ clock, env: { ...unlimited, VOICE_DAILY_CHARACTERS_PER_VISITOR: String(BUDGET) } });
  owner = await v.server.user();
  agentId = await createPersonality(owner, 'Public agent', { voiceProvider: 'elevenlabs', agentId: 'agent_budget' });
  elevenVoiceId = await createPersonality(owner, 'Eleven', { voiceProvider: 'elevenlabs', voice: 'female' });
  for (const id of [agentId, elevenVoiceId]) await makePublic(v.server.database.db, id);
});
afterAll(async () => {
  await v?.close();
});

const from = (address: string) => ({ 'x-forwarded-for': address });
const anonymous = () => v.server.client();
const chars = (n: number) => 'x'.repeat(n - 1) + '.';
const session = (client: TestClient, address: string, id = agentId) =>
  client.request('POST', `/api/personalities/${id}/voice/agent/session`, {}, from(address));
const agentLine = (client: TestClient, address: string, content: string, callToken: string | undefined, id = agentId) =>
  client.request('POST', `/api/personalities/${id}/voice/agent/transcript`, { conversationId: null, role: 'assistant', content, callToken }, from(address));
const signedUrlRequests = () => v.elevenlabs.convai.record.signedUrlRequests.length;

function expectRefusedForBudget(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body.error).toEqual({ code: 'VOICE_CREDITS_EXHAUSTED', message: messages.voice.creditsExhausted, details: { dailyLimit: BUDGET, perVisitor: true } });
}

describe('starting an agent call', () => {
  it('a visitor at their budget is refused before ElevenLabs is asked; one just under it may still call', async () => {
    const spent = '203.0.113.10';
    const nearly = '203.0.113.11';
    expect((await speak(anonymous(), elevenVoiceId, chars(BUDGET), from(spent))).status).toBe(200);
    expect((await speak(anonymous(), elevenVoiceId, chars(BUDGET - 1), from(nearly))).status).toBe(200);
    const asked = signedUrlRequests();
    expectRefusedForBudget(await session(anonymous(), spent));
    expect(signedUrlRequests()).toBe(asked);
    expect((await session(anonymous(), nearly)).status).toBe(200);
    expect(signedUrlRequests()).toBe(asked + 1);
  });
});

describe("an agent call's lines", () => {
  it("count toward the caller's budget: past it the call is told credits are spent and the next call is refused; other visitors are not", async () => {
    const a = '203.0.113.20';
    const { callToken } = (await session(anonymous(), a)).body;
    const first = await agentLine(anonymous(), a, chars(AGENT_FIRST_LINE_CHARS), callToken);
    expect(first.body).toMatchObject({ creditsExhausted: false });
    // The same budget as the speech route: 600 of 1000 spent leaves room for 400, not 401.
    expect((await speak(anonymous(), elevenVoiceId, chars(401), from(a))).status).toBe(429);
    later(60);
    const second = await agentLine(anonymous(), a, chars(500), callToken);
    expect(second.status).toBe(200);
    expect(second.body.creditsExhausted).toBe(true);
    const asked = signedUrlRequests();
    expectRefusedForBudget(await session(anonymous(), a));
    expect(signedUrlRequests()).toBe(asked);

    // Another address, and a signed-in person at the same address (counted by account), may call.
    expect((await session(anonymous(), '203.0.113.21')).status).toBe(200);
    const person = await v.server.user();
    expect((await session(person, a)).status).toBe(200);
  });

  it('a signed-in person is counted by account, wherever the lines come from; another account is unaffected', async () => {
    const person = await v.server.user();
    const other = await v.server.user();
    const { callToken } = (await session(person, '198.51.100.1')).body;
    expect((await agentLine(person, '198.51.100.2', chars(AGENT_FIRST_LINE_CHARS), callToken)).body.creditsExhausted).toBe(false);
    later(60);
    expect((await agentLine(person, '198.51.100.3', chars(BUDGET), callToken)).body.creditsExhausted).toBe(true);
    expectRefusedForBudget(await session(person, '198.51.100.4'));
    const theirs = await session(other, '198.51.100.1');
    expect(theirs.status).toBe(200);
    expect((await agentLine(other, '198.51.100.1', chars(10), theirs.body.callToken)).body.creditsExhausted).toBe(false);
  });

  it('count against the visitor who started the call even when their address changes', async () => {
    const started = '203.0.113.30';
    const moved = '203.0.113.31';
    const { callToken } = (await session(anonymous(), started)).body;
    expect((await agentLine(anonymous(), moved, chars(AGENT_FIRST_LINE_CHARS), callToken)).body.creditsExhausted).toBe(false);
    later(60);
    expect((await agentLine(anonymous(), moved, chars(500), callToken)).body.creditsExhausted).toBe(true);
    expectRefusedForBudget(await session(anonymous(), started));
    // The new address spent nothing of its own.
    expect((await session(anonymous(), moved)).status).toBe(200);
  });

  it("under a token issued before tokens named their visitor, count against the line's own visitor", async () => {
    const a = '203.0.113.40';
    // A call token as the server signed them before: its personality, asker and start, no visitor.
    const oldTokens = createTokenSigner<object>('test-secret-test-secret-test-secret-0123456789', 'kindred agent call v1');
    const callToken = oldTokens.sign({ id: crypto.randomUUID(), personalityId: agentId, viewerId: null, issuedAt: clock.at });
    expect((await agentLine(anonymous(), a, chars(AGENT_FIRST_LINE_CHARS), callToken)).body.creditsExhausted).toBe(false);
    later(60);
    expect((await agentLine(anonymous(), a, chars(500), callToken)).body.creditsExhausted).toBe(true);
    expectRefusedForBudget(await session(anonymous(), a));
  });
});

describe('with VOICE_DAILY_CHARACTERS_PER_VISITOR=0', () => {
  it('no call is refused and no line ends a call, however much is said', async () => {
    const w = await startVoiceServer({ clock, env: { ...unlimited, VOICE_DAILY_CHARACTERS_PER_VISITOR: '0' } });
    try {
      const talker = await w.server.user();
      const id = await createPersonality(talker, 'Talker', { voiceProvider: 'elevenlabs', agentId: 'agent_free' });
      await makePublic(w.server.database.db, id);
      const a = '203.0.113.50';
      const { callToken } = (await session(w.server.client(), a, id)).body;
      later(20 * 60);
      // 25,000 characters: past the default budget of 20,000.
      for (let i = 0; i < 5; i++) {
        const res = await agentLine(w.server.client(), a, chars(5000), callToken, id);
        expect(res.status).toBe(200);
        expect(res.body.creditsExhausted).toBe(false);
      }
      const usage = (await w.server.database.db.execute(`select coalesce(sum(credits_used),0)::int as n from elevenlabs_usage`) as any).rows[0].n;
      expect(usage).toBe(25_000);
      expect((await session(w.server.client(), a, id)).status).toBe(200);
    } finally {
      await w.close();
    }
  });
});
