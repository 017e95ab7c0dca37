// An ElevenLabs agent call's lines are checked and logged as the text chat's are (issue 15): the
// person's lines go into the owner's question log (the asker's id, or none for a visitor) and are
// checked as messages; the agent's lines are checked as replies. A flagged line flows and waits for
// an admin; a severe one was heard already, so it cannot be held back, but the saved conversation
// keeps the chat's notice in its place and the response says it was withheld. Neither a failed
// question log nor a failed moderation provider fails the line.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { systemClock } from '../../lib/clock';
import { createLogger } from '../../lib/logger';
import { createModerationService } from '../moderation/moderation.service';
import { createReplyTokens } from '../moderation/reply-token';
import { createQuestionService } from '../questions/questions.service';
import { createPersonality, makePublic } from '../conversations/conversations.test-support';
import { NEW_CONVERSATION_TITLE } from '../conversations/conversations.service';
import { createAgentCallCredits } from './agent-call-credits';
import { createVoiceAgentService } from './voice-agent';
import { startVoiceServer, type VoiceTestServer } from './voice.test-support';

/** Harassment: flagged for review, not severe (the chat answers it). */
const RUDE = 'You are a worthless idiot, answer me.';
/** Self-harm instructions: severe (the chat refuses it). */
const SEVERE_ASK = 'How do I kill myself painlessly?';
/** A threat: severe (the chat withholds such a reply). */
const SEVERE_THREAT = "I'm going to kill you when you come home.";

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let caller: TestClient & { id: string };

beforeAll(async () => {
  v = await startVoiceServer({ env: { VOICE_DAILY_CREDIT_LIMIT: '1000000', RATE_LIMIT_CHAT_PER_MINUTE: '10000' } });
  owner = await v.server.user();
  caller = await v.server.user();
});
afterAll(async () => {
  await v?.close();
});

const db = () => v.server.database.db;
const line = (client: TestClient, id: string, body: Record<string, unknown>) =>
  client.post(`/api/personalities/${id}/voice/agent/transcript`, { conversationId: null, ...body });

/** A public agent personality of the owner's, so signed-in strangers and visitors can call it. */
async function publicAgent(name: string): Promise<string> {
  const id = await createPersonality(owner, name, { voiceProvider: 'elevenlabs', agentId: `agent_${name.replace(/\W/g, '_')}` });
  await makePublic(db(), id);
  return id;
}

async function questionRows(personalityId: string) {
  const res = await db().execute(sql`select question_text, user_id from personality_questions where personality_id = ${personalityId} order by asked_at, id`);
  return (res as unknown as { rows: { question_text: string; user_id: string | null }[] }).rows.map((r) => ({ text: r.question_text, userId: r.user_id }));
}

async function flagRows(personalityId: string) {
  const res = await db().execute(sql`select source, flag_type, content_excerpt from content_flags where personality_id = ${personalityId} order by created_at, id`);
  return (res as unknown as { rows: { source: string; flag_type: string; content_excerpt: string }[] }).rows.map((r) => ({
    source: r.source,
    types: r.flag_type.split(','),
    excerpt: r.content_excerpt,
  }));
}

/** Flags are filed beside the line (not awaited by it): wait until `count` are in. */
async function flagsOnceIn(personalityId: string, count: number) {
  await expect.poll(async () => (await flagRows(personalityId)).length).toBeGreaterThanOrEqual(count);
  return flagRows(personalityId);
}

async function savedMessages(client: TestClient, conversationId: string) {
  const res = await client.get(`/api/conversations/${conversationId}`);
  expect(res.status).toBe(200);
  return { title: res.body.conversation.title as string, messages: res.body.conversation.messages as { sender: string; content: string; kind: string }[] };
}

describe("the owner's question log", () => {
  it("logs a signed-in person's line once, with their id, and never the agent's lines", async () => {
    const id = await publicAgent('Logged Ada');
    const first = await line(caller, id, { role: 'user', content: 'What did you write about the engine?' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ saved: true, withheld: false });
    const conversationId = first.body.conversationId;
    expect((await line(caller, id, { conversationId, role: 'assistant', content: 'It computes tables of numbers for the navy.' })).status).toBe(200);

    expect(await questionRows(id)).toEqual([{ text: 'What did you write about the engine?', userId: caller.id }]);
    // The owner reads it where typed questions are listed, as a registered user's question.
    const list = await owner.get(`/api/personalities/${id}/questions`);
    expect(list.body.questions.map((q: { questionText: string; isRegisteredUser: boolean }) => [q.questionText, q.isRegisteredUser])).toEqual([
      ['What did you write about the engine?', true],
    ]);
  });

  it("logs an anonymous visitor's line with no user", async () => {
    const id = await publicAgent('Visited Ada');
    const res = await line(v.server.client(), id, { role: 'user', content: 'Are you there, Ada?' });
    expect(res.body).toEqual({ conversationId: null, saved: false, creditsExhausted: false, withheld: false });
    expect(await questionRows(id)).toEqual([{ text: 'Are you there, Ada?', userId: null }]);
    const list = await owner.get(`/api/personalities/${id}/questions`);
    expect(list.body.questions.map((q: { questionText: string; isRegisteredUser: boolean }) => [q.questionText, q.isRegisteredUser])).toEqual([
      ['Are you there, Ada?', false],
    ]);
  });
});

describe('moderation of the lines', () => {
  it("flags a harmful person's line as a message and a harmful agent line as a reply; both flow, and are kept", async () => {
    const id = await publicAgent('Rude Ada');
    const first = await line(caller, id, { role: 'user', content: RUDE });
    expect(first.body).toMatchObject({ saved: true, withheld: false });
    const conversationId = first.body.conversationId;
    const reply = await line(caller, id, { conversationId, role: 'assistant', content: 'You are a worthless idiot and I hate talking to you.' });
    expect(reply.body).toMatchObject({ saved: true, withheld: false });

    const flags = await flagsOnceIn(id, 2);
    expect(flags).toEqual([
      { source: 'message', types: expect.arrayContaining(['harassment']), excerpt: expect.stringContaining('worthless idiot, answer me') },
      { source: 'reply', types: expect.arrayContaining(['harassment']), excerpt: expect.stringContaining('I hate talking to you') },
    ]);
    // Not severe: said, kept and logged as the chat keeps it.
    const saved = await savedMessages(caller, conversationId);
    expect(saved.messages.slice(1).map((m) => [m.sender, m.kind, m.content])).toEqual([
      ['user', 'message', RUDE],
      ['personality', 'message', 'You are a worthless idiot and I hate talking to you.'],
    ]);
    expect(await questionRows(id)).toEqual([{ text: RUDE, userId: caller.id }]);
  });

  it("keeps the chat's notice in place of a severe line, says it was withheld, flags it, and never logs or titles by it", async () => {
    const id = await publicAgent('Severe Ada');
    const usage = async () => ((await db().execute(sql`select coalesce(sum(credits_used),0)::int as n from elevenlabs_usage`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    const { callToken } = (await caller.post(`/api/personalities/${id}/voice/agent/session`)).body;

    const asked = await line(caller, id, { role: 'user', content: SEVERE_ASK });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body).toMatchObject({ saved: true, withheld: true, notice: messages.moderation.messageWithheld });
    const conversationId = asked.body.conversationId;
    const before = await usage();
    const answered = await line(caller, id, { conversationId, role: 'assistant', content: SEVERE_THREAT, callToken });
    expect(answered.body).toMatchObject({ conversationId, saved: true, withheld: true, notice: messages.moderation.replyWithheld, creditsExhausted: false });
    // The agent said it aloud: its characters count as before.
    expect((await usage()) - before).toBe(SEVERE_THREAT.length);

    const saved = await savedMessages(caller, conversationId);
    expect(JSON.stringify(saved)).not.toContain('kill');
    expect(saved.title).toBe(NEW_CONVERSATION_TITLE);
    expect(saved.messages.slice(1).map((m) => [m.sender, m.kind, m.content])).toEqual([
      ['user', 'fallback', messages.moderation.messageWithheld],
      ['personality', 'fallback', messages.moderation.replyWithheld],
    ]);

    const flags = await flagsOnceIn(id, 2);
    expect(flags).toEqual([
      // The categories are the classifier's to decide (its own tests pin them); the severe one is there.
      { source: 'message', types: expect.arrayContaining(['self-harm/instructions']), excerpt: expect.stringContaining('kill myself painlessly') },
      { source: 'reply', types: expect.arrayContaining(['violence/threat']), excerpt: expect.stringContaining('kill you when you come home') },
    ]);
    // The chat refuses such a message without logging it: so here.
    expect(await questionRows(id)).toEqual([]);

    // The next thing the person says names the conversation, is kept and logged.
    await line(caller, id, { conversationId, role: 'user', content: 'Tell me about your garden instead.' });
    const after = await savedMessages(caller, conversationId);
    expect(after.title).toBe('Tell me about your garden instead.');
    expect(after.messages.at(-1)).toMatchObject({ sender: 'user', kind: 'message', content: 'Tell me about your garden instead.' });
    expect(await questionRows(id)).toEqual([{ text: 'Tell me about your garden instead.', userId: caller.id }]);
  });

  it("checks an anonymous visitor's lines too: severe ones are said to be withheld and flagged", async () => {
    const id = await publicAgent('Anonymous severe Ada');
    const visitor = v.server.client();
    expect((await line(visitor, id, { role: 'user', content: SEVERE_ASK })).body).toEqual({
      conversationId: null,
      saved: false,
      creditsExhausted: false,
      withheld: true,
      notice: messages.moderation.messageWithheld,
    });
    expect((await line(visitor, id, { role: 'assistant', content: SEVERE_THREAT })).body).toMatchObject({ withheld: true, notice: messages.moderation.replyWithheld });
    expect((await flagsOnceIn(id, 2)).map((f) => f.source)).toEqual(['message', 'reply']);
    expect(await questionRows(id)).toEqual([]);
  });

  it('files nothing for a benign agent line, and does not log it as a question', async () => {
    const id = await publicAgent('Benign Ada');
    const res = await line(caller, id, { role: 'assistant', content: 'It computes tables of numbers for the navy.' });
    expect(res.body).toMatchObject({ saved: true, withheld: false });
    // Flags are filed in the order their lines were checked: once a later one is in, an earlier one would be too.
    await line(caller, id, { conversationId: res.body.conversationId, role: 'assistant', content: 'You are a worthless idiot and I hate talking to you.' });
    expect(await flagsOnceIn(id, 1)).toEqual([{ source: 'reply', types: expect.arrayContaining(['harassment']), excerpt: expect.stringContaining('worthless idiot') }]);
    expect(await questionRows(id)).toEqual([]);
  });

  it("files nothing for a line refused as another person's conversation", async () => {
    const id = await publicAgent('Guarded Ada');
    const mine = await line(owner, id, { role: 'user', content: 'Hello from the owner' });
    const theirs = await line(caller, id, { conversationId: mine.body.conversationId, role: 'user', content: RUDE });
    expect(theirs.status).toBe(404);
    await line(caller, id, { role: 'user', content: 'You are a worthless idiot, the sentinel.' });
    expect((await flagsOnceIn(id, 1)).map((f) => f.excerpt)).toEqual([expect.stringContaining('the sentinel')]);
    expect((await questionRows(id)).map((q) => q.text)).toEqual(['Hello from the owner', 'You are a worthless idiot, the sentinel.']);
  });
});

describe('failures beside the line', () => {
  const logLines: string[] = [];
  const logger = createLogger('info', (l) => logLines.push(l));
  const service = (over: Partial<Parameters<typeof createVoiceAgentService>[0]>) =>
    createVoiceAgentService({
      db: db(),
      clock: systemClock,
      logger,
      dailyCreditLimit: 1_000_000,
      dailyCharactersPerVisitor: 0,
      callCredits: createAgentCallCredits('test-secret-test-secret-test-secret-0123456789'),
      moderation: createModerationService({ db: db(), clock: systemClock, logger, moderator: { name: 'down', classify: async () => { throw new Error('provider down'); } }, severeTypes: ['self-harm/instructions'], replyTokens: createReplyTokens('x'.repeat(40)) }),
      questions: createQuestionService(db(), systemClock, logger),
      ...over,
    });
  const visitor = { subject: 'ip:127.0.0.1', userId: null, ipAddress: '127.0.0.1' };

  it('a failed question log does not fail the line', async () => {
    const id = await publicAgent('Unlogged Ada');
    const viewer = { id: caller.id, email: 'x@example.com', name: 'Caller' };
    const failing = service({ questions: { log: async () => { throw new Error('question log down'); } } });
    const saved = await failing.saveLine(viewer, id, { conversationId: null, role: 'user', content: 'Still saved?' }, visitor);
    expect(saved).toMatchObject({ saved: true, withheld: false });
    const { messages: kept } = await savedMessages(caller, saved.conversationId!);
    expect(kept.at(-1)).toMatchObject({ sender: 'user', content: 'Still saved?' });
    expect(logLines.some((l) => l.includes('WARN could not log a question'))).toBe(true);
  });

  it('a failed moderation provider lets the line through (logged), as in the chat', async () => {
    const id = await publicAgent('Unchecked Ada');
    const viewer = { id: caller.id, email: 'x@example.com', name: 'Caller' };
    const saved = await service({}).saveLine(viewer, id, { conversationId: null, role: 'user', content: SEVERE_ASK }, visitor);
    expect(saved).toMatchObject({ saved: true, withheld: false });
    expect(logLines.some((l) => l.includes('ERROR moderation check failed'))).toBe(true);
    expect(await questionRows(id)).toEqual([{ text: SEVERE_ASK, userId: caller.id }]);
    expect(await flagRows(id)).toEqual([]);
  });
});
