// Documents on S3-compatible storage (a real s3rver on loopback, selected by the S3_* settings as
// in production): files land in the bucket under user/personality/, processing reads them back
// from there, audio plays back streamed from the bucket, and deleting a document or a personality
// removes its objects. A refused upload leaves neither an object nor a row.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/test-server';
import { startS3TestServer, type S3TestServer } from '../../../../scripts/lib/s3-test-server';
import { startVoiceServer, toneWav16, type VoiceTestServer } from '../voice/voice.test-support';
import { createPersonality, postFileForm, streamedForm, uploadOne, waitForDocument } from './documents.test-support';

let s3: S3TestServer;
let v: VoiceTestServer;
let owner: TestClient & { id: string };
let bucket: S3Client;
// Kept by the test (not s3rver's own temporary folder), so the server can be stopped and started again over it.
const s3Directory = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-s3-docs-'));

beforeAll(async () => {
  s3 = await startS3TestServer({ directory: s3Directory });
  v = await startVoiceServer({ env: { ...s3.env, JOB_POLL_MS: '50', JOB_RETRY_BASE_MS: '50' } });
  owner = await v.server.user();
  bucket = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});
afterAll(async () => {
  bucket?.destroy();
  await v?.close();
  await s3?.close();
  fs.rmSync(s3Directory, { recursive: true, force: true });
});

async function keysUnder(prefix: string): Promise<string[]> {
  const out = await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!);
}

/** Multipart parts s3rver has written (uploads/<id>/<part number>), found on its disk. */
const partsSeen = new Set<string>();

async function waitForPart(minBytes: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const entry of fs.readdirSync(s3Directory, { recursive: true }) as string[]) {
      const file = path.join(s3Directory, entry);
      if (!/_uploads[/\\][^/\\]+[/\\]\d+$/.test(entry) || partsSeen.has(file)) continue;
      if (fs.statSync(file).size >= minBytes) {
        partsSeen.add(file);
        return;
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no multipart part reached the bucket while the body was paused');
}

describe('documents on S3-compatible storage', () => {
  it('stores an upload in the bucket, processes it from there, and deleting the document removes the object', async () => {
    const id = await createPersonality(owner, 'Bucketeer');
    const docId = await uploadOne(owner, id, { name: 'notes.txt', data: 'The lighthouse keeper logged every storm in a green ledger.', type: 'text/plain' });
    const keys = await keysUnder(`${owner.id}/${id}/`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/_notes\.txt$/);
    // Ready means the job read the file back from the bucket and chunked it.
    const doc = await waitForDocument(owner, id, docId);
    expect(doc.chunkCount).toBeGreaterThan(0);
    const chunks = await owner.get(`/api/personalities/${id}/documents/${docId}/chunks`);
    expect(JSON.stringify(chunks.body)).toContain('green ledger');

    expect((await owner.delete(`/api/personalities/${id}/documents/${docId}`)).status).toBe(200);
    expect(await keysUnder(`${owner.id}/${id}/`)).toEqual([]);
  });

  it('plays an audio document back from the bucket, byte for byte', async () => {
    v.openai.setAudio({ transcript: 'A short talk about tides', transcriptWithSeconds: false, transcribeFail: 'none' });
    const id = await createPersonality(owner, 'Speaker');
    const wav = toneWav16(30, 8000);
    const res = await postFileForm(owner, `/api/personalities/${id}/documents/audio`, 'file', { name: 'talk.wav', data: wav });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await waitForDocument(owner, id, res.body.document.id);
    const audio = await owner.raw(`/api/personalities/${id}/documents/${res.body.document.id}/audio`);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-length')).toBe(String(wav.length));
    expect(Buffer.from(await audio.arrayBuffer()).equals(Buffer.from(wav))).toBe(true);
  });

  it('deleting a personality removes every object under it, and only those', async () => {
    const gone = await createPersonality(owner, 'Leaving');
    const kept = await createPersonality(owner, 'Staying');
    await uploadOne(owner, gone, { name: 'a.txt', data: 'first file', type: 'text/plain' });
    await uploadOne(owner, gone, { name: 'b.md', data: '# second file', type: 'text/markdown' });
    await uploadOne(owner, kept, { name: 'c.txt', data: 'kept file', type: 'text/plain' });
    expect(await keysUnder(`${owner.id}/${gone}/`)).toHaveLength(2);
    expect((await owner.delete(`/api/personalities/${gone}`)).status).toBe(200);
    expect(await keysUnder(`${owner.id}/${gone}/`)).toEqual([]);
    expect(await keysUnder(`${owner.id}/${kept}/`)).toHaveLength(1);
  });

  it('a refused audio upload leaves no object and no row', async () => {
    const id = await createPersonality(owner, 'Refused');
    const res = await postFileForm(owner, `/api/personalities/${id}/documents/audio`, 'file', { name: 'fake.wav', data: 'not audio at all, only text' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await keysUnder(`${owner.id}/${id}/`)).toEqual([]);
    expect((await owner.get(`/api/personalities/${id}/documents`)).body.documents).toEqual([]);
  });

  it('a 19 MB recording goes up in parts while it is still arriving, and a connection cut midway leaves nothing', async () => {
    v.openai.setAudio({ transcript: 'A long talk about tides', transcriptWithSeconds: false, transcribeFail: 'none' });
    const id = await createPersonality(owner, 'Long talker');
    const wav = toneWav16(600); // 16 kHz mono: 19.2 MB
    const route = `/api/personalities/${id}/documents/audio`;

    // The body pauses after 12 MB until the bucket holds the first 8 MB part: the server is
    // passing the file on to storage before the person has finished sending it.
    const sent = await owner.raw(route, streamedForm([{ field: 'file', name: 'long-talk.wav', data: wav }], { at: 12 * 1024 * 1024, until: () => waitForPart(8 * 1024 * 1024) }));
    const body = await sent.json();
    expect(sent.status, JSON.stringify(body)).toBe(201);
    const keys = await keysUnder(`${owner.id}/${id}/`);
    expect(keys).toHaveLength(1);
    const stored = await owner.raw(`/api/personalities/${id}/documents/${body.document.id}/audio`);
    expect(Buffer.from(await stored.arrayBuffer()).equals(Buffer.from(wav))).toBe(true);

    // The same upload, cut off once its first part is in the bucket: no object, no document.
    const cut = await createPersonality(owner, 'Cut off');
    partsSeen.clear();
    await expect(owner.raw(`/api/personalities/${cut}/documents/audio`, streamedForm([{ field: 'file', name: 'long-talk.wav', data: wav }], { at: 12 * 1024 * 1024, until: () => waitForPart(8 * 1024 * 1024), cutOff: true }))).rejects.toThrow();
    // Nothing shows up later either (the server may still be winding the upload down).
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && (await keysUnder(`${owner.id}/${cut}/`)).length === 0) await new Promise((r) => setTimeout(r, 100));
    expect(await keysUnder(`${owner.id}/${cut}/`)).toEqual([]);
    expect((await owner.get(`/api/personalities/${cut}/documents`)).body.documents).toEqual([]);
  });

  it('a deletion while object storage is down succeeds, and a background job removes the files once it is back', async () => {
    const id = await createPersonality(owner, 'Outage');
    const docId = await uploadOne(owner, id, { name: 'outage.txt', data: 'Written before the storage went down.', type: 'text/plain' });
    await waitForDocument(owner, id, docId);
    expect(await keysUnder(`${owner.id}/${id}/`)).toHaveLength(1);
    const port = new URL(s3.endpoint).port;
    await s3.close();
    try {
      // The row is the truth a person sees: the document is gone, and the request says so.
      expect((await owner.delete(`/api/personalities/${id}/documents/${docId}`)).status).toBe(200);
      expect((await owner.get(`/api/personalities/${id}/documents`)).body.documents).toEqual([]);
    } finally {
      s3 = await startS3TestServer({ port: Number(port), directory: s3Directory });
    }
    const deadline = Date.now() + 30_000;
    while ((await keysUnder(`${owner.id}/${id}/`)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await keysUnder(`${owner.id}/${id}/`)).toEqual([]);
  });
});
