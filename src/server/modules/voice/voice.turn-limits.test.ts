// Open mic's voice turn counts the limits of the routes it stands for, with their messages: the
// speech-to-text (voice) limit and the chat limit before anything is spent (429), the speech limit
// per sentence and ElevenLabs' daily credits as the reply is spoken (the rest of it stays silent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../shared/messages';
import { chat, createPersonality } from '../conversations/conversations.test-support';
import { speechOf, startVoiceServer, toneWav16, voiceTurnEvents, type VoiceTestServer } from './voice.test-support';

let v: VoiceTestServer;
// The limits count per minute (and credits per day) by the server's clock: held still here, so a
// minute that ends between two of a test's requests cannot start a fresh window (a CI run met it).
const clock = { at: Date.now(), now: () => new Date(clock.at) };

beforeAll(async () => {
  v = await startVoiceServer(
    {
      clock,
      env: {
        RATE_LIMIT_VOICE_PER_MINUTE: '2',
        RATE_LIMIT_CHAT_PER_MINUTE: '3',
        RATE_LIMIT_SPEECH_PER_MINUTE: '1',
        VOICE_DAILY_CREDIT_LIMIT: '10',
      },
    },
    { chatModel: true },
  );
  v.openai.chatSettings.mode = 'reply';
  v.openai.chatSettings.reply = 'Hello there, my good friend. I am very well today, thank you.';
});
afterAll(async () => {
  await v?.close();
});

describe('the voice turn counts the limits of transcribe, chat and speech', () => {
  it('the speech limit is counted per sentence: past it, that sentence says why and the rest is silent', async () => {
    const alice = await v.server.user();
    const id = await createPersonality(alice, 'Nova', { voiceProvider: 'openai', voice: 'nova' });
    const res = await voiceTurnEvents(alice, id, toneWav16(1));
    expect(res.status).toBe(200);
    const spoken = speechOf(res.events);
    expect(spoken.length).toBe(2);
    expect('audio' in spoken[0]!).toBe(true);
    expect(spoken[1]).toMatchObject({ index: 1, error: { code: 'VOICE_RATE_LIMITED', message: messages.voice.rateLimited } });
    // The reply itself was answered and kept.
    expect(res.events.some((e) => e.type === 'done')).toBe(true);
  });

  it('the speech-to-text (voice) limit: 429 with the voice message, before any provider call', async () => {
    const bob = await v.server.user();
    const id = await createPersonality(bob, 'Nova', { voiceProvider: 'openai', voice: 'nova' });
    expect((await voiceTurnEvents(bob, id, toneWav16(1))).status).toBe(200);
    expect((await voiceTurnEvents(bob, id, toneWav16(1))).status).toBe(200);
    const before = v.openai.transcriptions.length;
    const refused = await voiceTurnEvents(bob, id, toneWav16(1));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'VOICE_RATE_LIMITED', message: messages.voice.rateLimited });
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(v.openai.transcriptions.length).toBe(before);
  });

  it('the chat limit is the text chat\'s own counter: spent there, the turn is refused with its message', async () => {
    const carol = await v.server.user();
    const id = await createPersonality(carol, 'Nova', { voiceProvider: 'openai', voice: 'nova' });
    for (let i = 0; i < 3; i++) expect((await chat(carol, id, { message: `Question ${i}` })).status).toBe(200);
    const before = { stt: v.openai.transcriptions.length, chat: v.openai.chatRequests.length };
    const refused = await voiceTurnEvents(carol, id, toneWav16(1));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', message: messages.errors.rateLimited });
    expect({ stt: v.openai.transcriptions.length, chat: v.openai.chatRequests.length }).toEqual(before);
  });

  it('ElevenLabs voices spend the daily credits: past them, the sentence says so and nothing is synthesized', async () => {
    const dave = await v.server.user();
    const id = await createPersonality(dave, 'Eleven', { voiceProvider: 'elevenlabs', voice: 'male' });
    const before = v.elevenlabs.requests.length;
    const res = await voiceTurnEvents(dave, id, toneWav16(1));
    expect(res.status).toBe(200);
    const spoken = speechOf(res.events);
    expect(spoken).toEqual([
      expect.objectContaining({ index: 0, error: { code: 'VOICE_CREDITS_EXHAUSTED', message: messages.voice.creditsExhausted } }),
    ]);
    expect(v.elevenlabs.requests.length).toBe(before);
  });
});
