// Audio as knowledge: an uploaded speech (WAV, MP3) is checked by its bytes, stored, transcribed by
// the speech-to-text provider (the loopback OpenAI fake) in pieces, and becomes a document whose
// chunks are searchable and cited; the original audio plays back for the owner. Bad files leave
// nothing stored; a failing provider is retried and resumes at the pieces not yet done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { startTestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { silentMp3 } from '../../../../tests/fakes/fake-audio';
import { startVoiceServer, toneWav16, type VoiceTestServer } from '../voice/voice.test-support';
import { createPersonality, postFileForm, waitForDocument } from './documents.test-support';

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let stranger: TestClient;
let id: string;

beforeAll(async () => {
  v = await startVoiceServer({ env: { JOB_POLL_MS: '50', JOB_RETRY_BASE_MS: '50' } });
  owner = await v.server.user();
  stranger = await v.server.user();
  id = await createPersonality(owner, 'Orator');
});
afterAll(async () => {
  await v?.close();
});

function uploadAudio(client: TestClient, personalityId: string, data: Uint8Array | string, name: string, fields: Record<string, string> = {}) {
  return postFileForm(client, `/api/personalities/${personalityId}/documents/audio`, 'file', { name, data }, fields);
}

/** A mono 8 kHz tone of `seconds` (small enough to upload many minutes). */
const longWav = (seconds: number) => toneWav16(seconds, 8000);

async function documentText(personalityId: string, documentId: string): Promise<string> {
  const res = await owner.get(`/api/personalities/${personalityId}/documents/${documentId}/chunks`);
  expect(res.status).toBe(200);
  return (res.body.chunks as { content: string }[]).map((c) => c.content).join('\n');
}

async function documentCount(personalityId: string): Promise<number> {
  return (await owner.get(`/api/personalities/${personalityId}/documents`)).body.documents.length;
}

describe('an uploaded speech becomes a document', () => {
  it('a 250 s WAV is transcribed in three pieces, joined in order, listed under its title, and plays back', async () => {
    v.openai.setAudio({ transcript: 'I graduated from the Royal Dick Vet in Edinburgh', transcriptWithSeconds: true, transcribeFail: 'none' });
    const before = v.openai.transcriptions.length;
    const wav = longWav(250);
    const res = await uploadAudio(owner, id, wav, 'speech.wav', { title: 'Graduation speech' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.document).toMatchObject({ fileName: 'Graduation speech', mimeType: 'audio/wav', status: 'processing' });
    const doc = await waitForDocument(owner, id, res.body.document.id);
    expect(doc.chunkCount).toBeGreaterThan(0);

    const calls = v.openai.transcriptions.slice(before);
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.wav && c.sampleRate === 8000 && c.channels === 1 && c.fileName === 'speech.wav')).toBe(true);
    const text = await documentText(id, doc.id);
    const order = [...text.matchAll(/\[(\d+) s\]/g)].map((m) => m[1]);
    expect(order).toEqual(['120', '120', '10']);

    // The transcript is knowledge like any other: the source view serves it to the owner.
    const source = await owner.get(`/api/personalities/${id}/documents/${doc.id}/source?chunk=0`);
    expect(source.status).toBe(200);
    expect(JSON.stringify(source.body)).toContain('Royal Dick Vet');

    const audio = await owner.raw(`/api/personalities/${id}/documents/${doc.id}/audio`);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await audio.arrayBuffer()).equals(Buffer.from(wav))).toBe(true);
    expect((await stranger.raw(`/api/personalities/${id}/documents/${doc.id}/audio`)).status).toBe(404);
  });

  it('an MP3 is sent to the provider as MP3; the uploaded name is the title when none is given', async () => {
    v.openai.setAudio({ transcript: 'My first dog was called Bran', transcriptWithSeconds: false });
    const before = v.openai.transcriptions.length;
    const res = await uploadAudio(owner, id, silentMp3(3), '../../etc/interview.mp3');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.document.fileName).toBe('interview.mp3');
    const doc = await waitForDocument(owner, id, res.body.document.id);
    expect(v.openai.transcriptions.slice(before)).toEqual([expect.objectContaining({ fileName: 'speech.mp3', fileType: 'audio/mpeg', wav: false })]);
    expect(await documentText(id, doc.id)).toContain('Bran');
  });
});

describe('bad audio is refused with a clear message and nothing is stored', () => {
  it('a text file named .mp3, a truncated MP3, an empty file, a WAV that is not 16-bit PCM, 21 MB', async () => {
    const count = await documentCount(id);
    const calls = v.openai.transcriptions.length;
    const text = await uploadAudio(owner, id, 'This is not audio at all, only words.', 'speech.mp3');
    expect(text).toMatchObject({ status: 400, body: { error: { message: messages.documents.audioType } } });
    const mp3 = silentMp3(1);
    const truncated = await uploadAudio(owner, id, mp3.subarray(0, 417 * 2 + 100), 'cut.mp3');
    expect(truncated).toMatchObject({ status: 400, body: { error: { message: messages.documents.audioTruncated } } });
    const empty = await uploadAudio(owner, id, new Uint8Array(0), 'empty.wav');
    expect(empty).toMatchObject({ status: 400, body: { error: { message: messages.documents.audioEmpty } } });
    const float = toneWav16(1);
    Buffer.from(float.buffer, float.byteOffset).writeUInt16LE(32, 34); // 32-bit samples
    const wavFormat = await uploadAudio(owner, id, float, 'float.wav');
    expect(wavFormat).toMatchObject({ status: 400, body: { error: { message: messages.documents.audioWavFormat } } });
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(mp3.subarray(0, 417 * 3));
    const tooBig = await uploadAudio(owner, id, big, 'long.mp3');
    expect(tooBig).toMatchObject({ status: 413, body: { error: { message: messages.documents.audioTooLarge } } });

    expect(await documentCount(id)).toBe(count);
    expect(v.openai.transcriptions.length).toBe(calls);
  });

  it('only the owner uploads: anonymous 401 with the spec message, a stranger 404', async () => {
    const anonymous = await uploadAudio(v.server.client(), id, silentMp3(1), 'a.mp3');
    expect(anonymous).toMatchObject({ status: 401, body: { error: { message: messages.documents.audioSignIn } } });
    const strangers = await uploadAudio(stranger, id, silentMp3(1), 'a.mp3');
    expect(strangers.status).toBe(404);
  });
});

describe('provider failures', () => {
  it('a 500 on one piece is retried; the retry does only the pieces not yet done', async () => {
    const before = v.openai.transcriptions.length;
    v.openai.setAudio({ transcript: 'Piece', transcriptWithSeconds: true, transcribeFailCalls: [before + 1] });
    const res = await uploadAudio(owner, id, longWav(250), 'retry.wav');
    expect(res.status).toBe(201);
    const doc = await waitForDocument(owner, id, res.body.document.id);
    // Three pieces, one failed once: four calls, not six.
    expect(v.openai.transcriptions.length - before).toBe(4);
    const order = [...(await documentText(id, doc.id)).matchAll(/\[(\d+) s\]/g)].map((m) => m[1]);
    expect(order).toEqual(['120', '120', '10']);
    v.openai.setAudio({ transcribeFailCalls: [], transcriptWithSeconds: false });
  });

  it('a quota error fails the document with the reason, the audio is kept, and Retry works', async () => {
    v.openai.setAudio({ transcript: 'We moved to Mull in 1984', transcribeFail: 'quota' });
    const res = await uploadAudio(owner, id, longWav(5), 'quota.wav');
    expect(res.status).toBe(201);
    const failed = await waitForDocument(owner, id, res.body.document.id, ['failed']);
    expect(failed.error).toBe(messages.voice.quotaExceeded);
    v.openai.setAudio({ transcribeFail: 'none' });
    const retry = await owner.post(`/api/personalities/${id}/documents/${failed.id}/process`, {});
    expect(retry.status).toBe(202);
    const ready = await waitForDocument(owner, id, failed.id);
    expect(await documentText(id, ready.id)).toContain('Mull in 1984');
  });

  it('silence transcribed as nothing fails with "no speech", never an empty document', async () => {
    v.openai.setAudio({ transcript: '' });
    const res = await uploadAudio(owner, id, longWav(2), 'quiet.wav');
    const failed = await waitForDocument(owner, id, res.body.document.id, ['failed']);
    expect(failed.error).toBe(messages.documents.audioNoSpeech('quiet.wav'));
    v.openai.setAudio({ transcript: 'Hello' });
  });
});

describe('without speech recognition', () => {
  it('the upload is refused before anything is stored (503, how to configure it)', async () => {
    const s = await startTestServer({ env: { VOICE_OFFLINE_STT: 'off' } });
    try {
      const o = await s.user();
      const pid = await createPersonality(o, 'Mute');
      const res = await uploadAudio(o, pid, silentMp3(1), 'a.mp3');
      expect(res).toMatchObject({ status: 503, body: { error: { message: messages.voice.sttUnavailable } } });
      expect((await o.get(`/api/personalities/${pid}/documents`)).body.documents).toHaveLength(0);
    } finally {
      await s.close();
    }
  });
});
