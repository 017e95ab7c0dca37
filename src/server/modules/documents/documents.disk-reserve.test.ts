// DISK_RESERVE_MB: a document is refused, with a plain message and nothing left in storage, while
// the disk holding DATA_DIR would be left too full (the embedded database stops answering when its
// disk fills mid-ingest). The reserve here is far larger than any disk, so every document is refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, upload } from './documents.test-support';

let server: TestServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-disk-'));
  // A petabyte: no test machine's disk has that free.
  server = await startTestServer({ dataDir, env: { JOB_CONCURRENCY: '0', DISK_RESERVE_MB: String(1024 ** 3) } });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a nearly full disk', () => {
  it('refuses a document with a plain message, keeps nothing of it, and tells the operator', async () => {
    const owner = await server.user();
    const pid = await createPersonality(owner, 'Ada');
    const res = await upload(owner, pid, [{ name: 'notes.txt', data: 'Notes about the engine and the loom.' }]);
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({ fileName: 'notes.txt', ok: false, error: messages.documents.serverDiskFull('notes.txt') });
    expect((await owner.get(`/api/personalities/${pid}/documents`)).body.documents).toEqual([]);
    const blobs = path.join(dataDir, 'blobs');
    const files = fs.existsSync(blobs) ? (fs.readdirSync(blobs, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(blobs, f)).isFile()) : [];
    expect(files).toEqual([]);
    expect(server.logs.some((l) => / WARN .*disk holding DATA_DIR is nearly full/.test(l))).toBe(true);
  });
});
