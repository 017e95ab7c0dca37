// Open mic's voice turn (one request): the recording is transcribed, answered by the grounded chat
// in the same saved conversation, and spoken sentence by sentence in order, all in one NDJSON
// answer; the access check comes before any provider call; silence is NO_SPEECH; disconnecting
// mid-reply cancels the model call upstream and keeps what the chat route keeps when stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createTurnStreamParser } from '../../../shared/voice-turn-stream';
import { createPersonality } from '../conversations/conversations.test-support';
import { isWav, silentWav16, speechOf, startVoiceServer, toneWav16, voiceTurn, voiceTurnEvents, type VoiceTestServer } from './voice.test-support';

const REPLY = 'Hello there, my good friend. I am very well today, thank you.';
let v: VoiceTestServer;
let owner: TestClient & { id: string };
let openaiId: string;

beforeAll(async () => {
  v = await startVoiceServer({}, { chatModel: true });
  owner = await v.server.user();
  openaiId = await createPersonality(owner, 'Nova Voice', { voiceProvider: 'openai', voice: 'nova' });
});
afterAll(async () => {
  await v?.close();
});

describe('a voice turn', () => {
  it('is transcribed, answered, saved in the conversation and spoken sentence by sentence, in order', async () => {
    v.openai.chatSettings.mode = 'reply';
    v.openai.chatSettings.reply = REPLY;
    v.openai.setAudio({ transcript: 'How are you today?' });
    const res = await voiceTurnEvents(owner, openaiId, toneWav16(1));
    expect(res.status).toBe(200);
    const types = res.events.map((e) => e.type);
    expect(types[0]).toBe('transcript');
    expect(res.events[0]).toMatchObject({ type: 'transcript', text: 'How are you today?', engine: 'openai' });
    expect(types[1]).toBe('start');
    expect(types).toContain('delta');
    expect(types.indexOf('done')).toBeGreaterThan(types.lastIndexOf('delta'));
    // The first sentence is spoken before the reply is complete would need a slow model; here: both, in order.
    // WAV is passed on as the provider streams it (the fake sends 4 KB at a time): a sentence's
    // first bytes, then the rest in `speech-more` events, joined here by speechOf.
    expect(res.events.filter((e) => e.type === 'speech-more' && e.index === 0).length).toBeGreaterThan(1);
    const spoken = speechOf(res.events);
    expect(spoken.map((s) => [s.index, s.text])).toEqual([
      [0, 'Hello there, my good friend.'],
      [1, 'I am very well today, thank you.'],
    ]);
    for (const s of spoken) {
      if ('error' in s) throw new Error(s.error.message);
      // OpenAI is asked for WAV (decoded at once in the browser): the same voice, the same words.
      expect(s.mime).toBe('audio/wav');
      expect(isWav(Buffer.from(s.audio, 'base64'))).toBe(true);
      expect(s.provider).toBe('openai');
    }
    // Two sentences are synthesized at once (spoken-reply.ts, AHEAD), so the provider may receive
    // them in either order; the events above are what must be in order.
    const asked = v.openai.speeches.slice(-2).map((s) => [s.body.input, s.body.voice, s.body.response_format]);
    expect(asked.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['Hello there, my good friend.', 'nova', 'wav'],
      ['I am very well today, thank you.', 'nova', 'wav'],
    ]);
    // Both sides are saved in the conversation the chat route would have used.
    const start = res.events.find((e) => e.type === 'start')!;
    const conversationId = start.type === 'start' ? start.conversationId : null;
    const saved = (await owner.get(`/api/conversations/${conversationId}`)).body.conversation.messages as { sender: string; content: string; kind: string }[];
    expect(saved.slice(-2).map((m) => [m.sender, m.content])).toEqual([
      ['user', 'How are you today?'],
      ['personality', REPLY],
    ]);
    // The next turn continues that conversation: the model sees the earlier exchange.
    v.openai.setAudio({ transcript: 'And yesterday?' });
    const next = await voiceTurnEvents(owner, openaiId, toneWav16(1), { conversationId });
    expect(next.status).toBe(200);
    const sent = v.openai.chatRequests.at(-1)!.body.messages!.map((m) => m.content);
    expect(sent).toContain('How are you today?');
    expect(sent.at(-1)).toBe('And yesterday?');
    const again = (await owner.get(`/api/conversations/${conversationId}`)).body.conversation.messages as unknown[];
    expect(again.length).toBe(saved.length + 2);
  });

  it('the first sentence is spoken while the model is still writing the rest', async () => {
    v.openai.chatSettings.reply = 'The first sentence is complete here. Then the model keeps on writing many more words for a while.';
    v.openai.chatSettings.delayMs = 40;
    try {
      const res = await voiceTurnEvents(owner, openaiId, toneWav16(1));
      const types = res.events.map((e) => (e.type === 'speech' ? `speech${e.index}` : e.type));
      expect(types.indexOf('speech0')).toBeGreaterThan(-1);
      expect(types.indexOf('speech0')).toBeLessThan(types.lastIndexOf('delta'));
      expect(types.indexOf('speech1')).toBeGreaterThan(types.indexOf('speech0'));
    } finally {
      v.openai.chatSettings.delayMs = 0;
    }
  });

  it('a sentence the embedded voice cannot speak (Chinese) is left to the browser voice (TTS_BROWSER), the English one is spoken', async () => {
    const embeddedId = await createPersonality(owner, 'Embedded Voice');
    v.openai.chatSettings.mode = 'reply';
    v.openai.chatSettings.reply = 'I am very well today, thank you.\n李白是唐朝著名的诗人，他最喜欢喝酒和赏月。';
    v.openai.setAudio({ transcript: 'How are you today?' });
    const res = await voiceTurnEvents(owner, embeddedId, toneWav16(1));
    expect(res.status).toBe(200);
    const spoken = speechOf(res.events);
    expect(spoken.map((s) => s.text)).toEqual(['I am very well today, thank you.', '李白是唐朝著名的诗人，他最喜欢喝酒和赏月。']);
    const [english, chinese] = spoken;
    if (!english || 'error' in english) throw new Error(`the English sentence was not spoken: ${JSON.stringify(english)}`);
    expect(english.provider).toBe('embedded');
    expect(Buffer.from(english.audio, 'base64').byteLength).toBeGreaterThan(1000);
    expect(chinese).toMatchObject({ error: { code: 'TTS_BROWSER' } });
  });

  it("404 for a personality the asker may not see, before any provider call", async () => {
    const stranger = await v.server.user();
    const before = { stt: v.openai.transcriptions.length, chat: v.openai.chatRequests.length, tts: v.openai.speeches.length };
    const res = await voiceTurnEvents(stranger, openaiId, toneWav16(1));
    expect(res.status).toBe(404);
    expect({ stt: v.openai.transcriptions.length, chat: v.openai.chatRequests.length, tts: v.openai.speeches.length }).toEqual(before);
  });

  it('silence is NO_SPEECH (422): nothing is transcribed, answered or saved', async () => {
    const before = { stt: v.openai.transcriptions.length, chat: v.openai.chatRequests.length };
    const res = await voiceTurnEvents(owner, openaiId, silentWav16(1));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'NO_SPEECH', message: messages.voice.noSpeech });
    expect({ stt: v.openai.transcriptions.length, chat: v.openai.chatRequests.length }).toEqual(before);
  });

  it('disconnecting mid-reply cancels the model call upstream and keeps what was said, as stopped', async () => {
    v.openai.chatSettings.reply = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    v.openai.chatSettings.delayMs = 30;
    try {
      const controller = new AbortController();
      const res = await voiceTurn(owner, openaiId, toneWav16(1), undefined, controller.signal);
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const parser = createTurnStreamParser();
      const decoder = new TextDecoder();
      let conversationId: string | null = null;
      let deltas = 0;
      while (deltas < 3) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const e of parser.feed(decoder.decode(value, { stream: true }))) {
          if (e.type === 'start') conversationId = e.conversationId;
          if (e.type === 'delta') deltas++;
        }
      }
      expect(deltas).toBe(3);
      const request = v.openai.chatRequests.at(-1)!;
      controller.abort();
      for (let i = 0; i < 100 && !request.aborted; i++) await new Promise((r) => setTimeout(r, 50));
      expect(request.aborted).toBe(true);
      expect(request.completed).toBe(false);
      let last: { kind: string; content: string } | undefined;
      for (let i = 0; i < 100 && last?.kind !== 'stopped'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        last = (await owner.get(`/api/conversations/${conversationId}`)).body.conversation.messages.at(-1);
      }
      expect(last?.kind).toBe('stopped');
      expect(last!.content.startsWith('word0 word1')).toBe(true);
      expect(last!.content).not.toContain('word299');
    } finally {
      v.openai.chatSettings.delayMs = 0;
    }
  });

  it('barge-in (the turn cancelled) cancels the speech still being made, quietly', async () => {
    v.openai.chatSettings.reply = `This first sentence is spoken. ${Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')}`;
    v.openai.chatSettings.delayMs = 30;
    v.openai.setAudio({ speechDelayMs: 5_000 });
    const speechesBefore = v.openai.speeches.length;
    const logsBefore = v.server.logs.length;
    try {
      const controller = new AbortController();
      const res = await voiceTurn(owner, openaiId, toneWav16(1), undefined, controller.signal);
      expect(res.status).toBe(200);
      void res.body!.getReader().read().catch(() => {});
      // The first sentence's speech is asked for while the model is still writing.
      for (let i = 0; i < 100 && v.openai.speeches.length === speechesBefore; i++) await new Promise((r) => setTimeout(r, 50));
      const asked = v.openai.speeches.slice(speechesBefore);
      expect(asked.map((s) => s.body.input)).toEqual(['This first sentence is spoken.']);
      controller.abort();
      for (let i = 0; i < 100 && !asked[0]!.closedEarly; i++) await new Promise((r) => setTimeout(r, 50));
      expect(asked[0]!.closedEarly).toBe(true);
      // A cancelled synthesis is not a provider failure: nothing is logged as one.
      await new Promise((r) => setTimeout(r, 200));
      expect(v.server.logs.slice(logsBefore).filter((l) => /speech failed/.test(l))).toEqual([]);
    } finally {
      v.openai.chatSettings.delayMs = 0;
      v.openai.setAudio({ speechDelayMs: 0 });
    }
  });
});
