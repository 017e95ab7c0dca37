// Pronunciation coaching (phonetic mode): a coach personality's recordings are transcribed twice
// (what was meant, and verbatim what was heard, with the `prompt` OpenAI-compatible servers read),
// assessed by Azure Speech (loopback fake of its REST short-audio API; audio over 30 s in pieces)
// or, approximately, by the offline recognizer; the chat coaches from the report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { startTestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { startFakeAzureSpeech, type FakeAzure } from '../../../../tests/fakes/azure-speech-fake';
import { VERBATIM_PROMPT } from '../../ai/speech/openai-speech-to-text';
import { findPocketsphinx } from '../../ai/speech/pocketsphinx-speech-to-text';
import { chat, createPersonality, eventOf } from '../conversations/conversations.test-support';
import { spokenWav16, startVoiceServer, toneWav16, transcribe, type VoiceTestServer } from './voice.test-support';
import { pcmWav } from '../../ai/speech/audio-file';

let v: VoiceTestServer;
let azure: FakeAzure;
let owner: TestClient & { id: string };
let coach: string;

beforeAll(async () => {
  azure = await startFakeAzureSpeech();
  v = await startVoiceServer({ env: { AZURE_SPEECH_KEY: 'fake-azure-key', AZURE_SPEECH_ENDPOINT: azure.url } });
  owner = await v.server.user();
  coach = await createPersonality(owner, 'Accent Coach');
});
afterAll(async () => {
  await v?.close();
  await azure?.close();
});

describe('phonetic mode with Azure Speech', () => {
  it('heard verbatim, assessed against what was meant; words with scores and error types, mispronunciations worst first', async () => {
    v.openai.setAudio({ transcript: 'I thought it was thorough', verbatimTranscript: 'I fought it was forough', transcribeFail: 'none' });
    azure.set({ mispronounce: ['thought', 'thorough'], omit: [], fail: 'none' });
    const calls = v.openai.transcriptions.length;
    const res = await transcribe(owner, coach, toneWav16(2));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.text).toBe('I fought it was forough');
    const sent = v.openai.transcriptions.slice(calls);
    expect(sent.map((t) => t.prompt)).toEqual([undefined, VERBATIM_PROMPT]);

    const a = azure.requests.at(-1)!;
    expect(a).toMatchObject({ key: 'fake-azure-key', language: 'en-US', format: 'detailed', sampleRate: 16000 });
    expect(a.contentType).toContain('audio/wav');
    expect(a.config).toMatchObject({ ReferenceText: 'I thought it was thorough', GradingSystem: 'HundredMark', EnableMiscue: true });

    const report = res.body.pronunciation;
    expect(report).toMatchObject({ available: true, engine: 'azure', approximate: false, referenceText: 'I thought it was thorough', heardText: 'I fought it was forough' });
    expect(report.wordDetails).toEqual([
      { word: 'i', accuracyScore: 95, errorType: 'None' },
      { word: 'thought', accuracyScore: 35, errorType: 'Mispronunciation' },
      { word: 'it', accuracyScore: 95, errorType: 'None' },
      { word: 'was', accuracyScore: 95, errorType: 'None' },
      { word: 'thorough', accuracyScore: 35, errorType: 'Mispronunciation' },
    ]);
    expect(report.mispronunciations.map((m: { expected: string; priority: string }) => [m.expected, m.priority])).toEqual([
      ['thought', 'high'],
      ['thorough', 'high'],
    ]);
    expect(report.accuracyScore).toBe(71);

    await test2ChatCoaches(report);
  });

  async function test2ChatCoaches(report: unknown) {
    const reply = await chat(owner, coach, { message: 'I fought it was forough', pronunciationReport: report });
    expect(reply.status).toBe(200);
    expect(eventOf(reply, 'done')).toBeDefined();
    // The offline responder (no model here) starts with the feedback on the words that need work.
    expect(reply.text).toMatch(/^Good effort: 71 out of 100\./);
    expect(reply.text).toContain('"thought" sounded like');
  }

  it('a recording over 30 s goes to Azure in pieces, each with its share of the reference', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    v.openai.setAudio({ transcript: words, verbatimTranscript: words });
    azure.set({ mispronounce: [] });
    const before = azure.requests.length;
    const res = await transcribe(owner, coach, toneWav16(45));
    expect(res.status).toBe(200);
    const pieces = azure.requests.slice(before);
    expect(pieces).toHaveLength(2);
    expect(pieces.map((p) => p.config.ReferenceText!.split(' ').length)).toEqual([27, 13]);
    expect(pieces.every((p) => p.bytes <= 44 + 30 * 16000 * 2)).toBe(true);
    expect(res.body.pronunciation.wordDetails).toHaveLength(40);
  });

  it('a WAV at 44.1 kHz in stereo (an API client\'s) goes to Azure as the 16 kHz mono its endpoint reads', async () => {
    v.openai.setAudio({ transcript: 'Good morning', verbatimTranscript: 'Good morning' });
    azure.set({ mispronounce: [], fail: 'none' });
    const samples = 44100; // one second, two channels
    const data = new Uint8Array(samples * 2 * 2);
    const view = new DataView(data.buffer);
    for (let i = 0; i < samples; i++) {
      const s = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / 44100));
      view.setInt16(i * 4, s, true);
      view.setInt16(i * 4 + 2, s, true);
    }
    const res = await transcribe(owner, coach, pcmWav(data, 44100, 2));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(azure.requests.at(-1)).toMatchObject({ sampleRate: 16000 });
    // One second at 16 kHz mono: 32,000 bytes of samples after the 44-byte header.
    expect(azure.requests.at(-1)!.bytes).toBe(44 + 32000);
    expect(res.body.pronunciation).toMatchObject({ available: true, engine: 'azure', accuracyScore: 95 });
  });

  it('Azure hearing none of the meant words marks each omitted; its Error status is reported as a failure', async () => {
    v.openai.setAudio({ transcript: 'Good morning', verbatimTranscript: 'Good morning' });
    for (const recognition of ['NoMatch', 'InitialSilenceTimeout', 'BabbleTimeout'] as const) {
      azure.set({ recognition, fail: 'none' });
      const res = await transcribe(owner, coach, toneWav16(1));
      expect(res.status).toBe(200);
      expect(res.body.pronunciation).toMatchObject({
        available: true,
        accuracyScore: 0,
        wordDetails: [
          { word: 'good', accuracyScore: 0, errorType: 'Omission' },
          { word: 'morning', accuracyScore: 0, errorType: 'Omission' },
        ],
      });
    }
    azure.set({ recognition: 'Error' });
    const res = await transcribe(owner, coach, toneWav16(1));
    expect(res.body.pronunciation).toMatchObject({ available: false, message: messages.voice.pronunciationServiceDown });
    azure.set({ recognition: 'Success' });
  });

  it('an Azure failure leaves the chat working: the report says so plainly, the provider\'s answer is in the log only', async () => {
    v.openai.setAudio({ transcript: 'Good morning', verbatimTranscript: 'Good morning' });
    for (const fail of ['server_error', 'unauthorized'] as const) {
      azure.set({ fail });
      const from = v.server.logs.length;
      const res = await transcribe(owner, coach, toneWav16(1));
      expect(res.status).toBe(200);
      expect(res.body.text).toBe('Good morning');
      expect(res.body.pronunciation).toMatchObject({ available: false, wordDetails: [], message: messages.voice.pronunciationServiceDown });
      // The report is shown in the chat log, to anonymous visitors of a public coach too.
      expect(JSON.stringify(res.body)).not.toMatch(/Azure Speech answered|subscription key|Internal error/);
      const logged = v.server.logs.slice(from).join('\n');
      expect(logged).toContain(fail === 'unauthorized' ? 'Azure Speech answered 401: Access denied due to invalid subscription key.' : 'Azure Speech answered 500: Internal error');
    }
    azure.set({ fail: 'none' });
  });

  it('outside phonetic mode: one transcription, no report; the setting turns it on without the name', async () => {
    const plain = await createPersonality(owner, 'Storyteller');
    const calls = v.openai.transcriptions.length;
    const res = await transcribe(owner, plain, toneWav16(1));
    expect(res.body.pronunciation).toBeUndefined();
    expect(v.openai.transcriptions.length - calls).toBe(1);
    const withSetting = await createPersonality(owner, 'Tutor', { voiceProvider: 'openai', voice: 'nova', enablePhoneticTranscription: true });
    const on = await transcribe(owner, withSetting, toneWav16(1));
    expect(on.body.pronunciation).toMatchObject({ available: true, engine: 'azure' });
  });
});

describe('without an assessment service', () => {
  it('the report says assessment is unavailable and how to configure it; the message still goes through', async () => {
    const s = await startVoiceServer({ env: { VOICE_OFFLINE_STT: 'off' } });
    try {
      const o = await s.server.user();
      const id = await createPersonality(o, 'Pronunciation Pal');
      const res = await transcribe(o, id, toneWav16(1));
      expect(res.status).toBe(200);
      expect(res.body.pronunciation).toEqual(expect.objectContaining({ available: false, message: messages.voice.pronunciationUnavailable }));
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(findPocketsphinx() === undefined)('offline, approximate (pocketsphinx installed)', () => {
  it('scores each word of what was recognised from the recognizer\'s word confidences, labelled approximate', async () => {
    const s = await startTestServer({ env: { RATE_LIMIT_VOICE_PER_MINUTE: '1000' } });
    try {
      const o = await s.user();
      const id = await createPersonality(o, 'Accent Trainer');
      const res = await transcribe(o, id, await spokenWav16('The weather in Edinburgh is thoroughly unpredictable.'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const report = res.body.pronunciation;
      expect(report).toMatchObject({ available: true, engine: 'pocketsphinx', approximate: true });
      expect(report.wordDetails.length).toBeGreaterThanOrEqual(4);
      for (const w of report.wordDetails) {
        expect(w.accuracyScore).toBeGreaterThanOrEqual(0);
        expect(w.accuracyScore).toBeLessThanOrEqual(100);
      }
      expect(report.wordDetails.map((w: { word: string }) => w.word.toLowerCase())).toContain('edinburgh');
    } finally {
      await s.close();
    }
  });
});
