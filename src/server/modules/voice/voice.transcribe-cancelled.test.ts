// A recording whose request is cancelled while it is being transcribed (open mic withdraws a turn
// when the person goes on speaking; the person leaves Self-paced Chat mid-upload) is no failure of
// the speech-to-text service: it is not logged as an error, nor answered as a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { createPersonality } from '../conversations/conversations.test-support';
import { startVoiceServer, toneWav16, voiceTurn, type VoiceTestServer } from './voice.test-support';

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let personalityId: string;

beforeAll(async () => {
  v = await startVoiceServer({}, { chatModel: true });
  owner = await v.server.user();
  personalityId = await createPersonality(owner, 'Pausing Nova', { voiceProvider: 'openai', voice: 'nova' });
});
afterAll(async () => {
  await v?.close();
});

/** Waits until the fake's speech-to-text has received one more request than `before`. */
async function untilTranscribing(before: number) {
  const until = Date.now() + 15_000;
  while (v.openai.transcriptions.length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(v.openai.transcriptions.length).toBeGreaterThan(before);
}

/** What the server logged as a problem (warnings and errors) since `from`. */
const problemsSince = (from: number) => v.server.logs.slice(from).filter((l) => / (ERROR|WARN) /.test(l));

describe('a transcription cancelled through its request', () => {
  it('open mic: a turn withdrawn mid-transcription logs no error', async () => {
    v.openai.setAudio({ transcript: 'What did you do yesterday', transcribeDelayMs: 1500 });
    try {
      const from = v.server.logs.length;
      const before = v.openai.transcriptions.length;
      const withdraw = new AbortController();
      const answer = voiceTurn(owner, personalityId, toneWav16(1), undefined, withdraw.signal).catch(() => 'withdrawn');
      await untilTranscribing(before);
      withdraw.abort();
      expect(await answer).toBe('withdrawn');
      // Past the transcription's answer, and the server's handling of the cancelled request.
      await new Promise((r) => setTimeout(r, 2500));
      expect(problemsSince(from)).toEqual([]);
    } finally {
      v.openai.setAudio({ transcribeDelayMs: 0 });
    }
  });

  it('Self-paced Chat: a recording abandoned mid-transcription logs no error', async () => {
    v.openai.setAudio({ transcript: 'Hello', transcribeDelayMs: 1500 });
    try {
      const from = v.server.logs.length;
      const before = v.openai.transcriptions.length;
      const leave = new AbortController();
      const answer = owner
        .raw(`/api/personalities/${personalityId}/voice/transcribe`, { method: 'POST', headers: { 'content-type': 'audio/wav' }, body: Buffer.from(toneWav16(1)), signal: leave.signal })
        .catch(() => 'abandoned');
      await untilTranscribing(before);
      leave.abort();
      expect(await answer).toBe('abandoned');
      await new Promise((r) => setTimeout(r, 2500));
      expect(problemsSince(from)).toEqual([]);
    } finally {
      v.openai.setAudio({ transcribeDelayMs: 0 });
    }
  });

  it('a transcription that really fails is still an error', async () => {
    v.openai.setAudio({ transcribeFail: 'server_error' });
    try {
      const from = v.server.logs.length;
      const res = await voiceTurn(owner, personalityId, toneWav16(1));
      expect(res.status).toBe(502);
      expect(problemsSince(from).some((l) => /ERROR request failed/.test(l))).toBe(true);
    } finally {
      v.openai.setAudio({ transcribeFail: 'none' });
    }
  });
});
