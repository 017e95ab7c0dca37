// STORAGE_QUOTA_MB: what one person's documents may take together, across their personalities,
// checked as each document is recorded (concurrent uploads take turns), with a message that says
// how much is used; a refused file leaves nothing in storage.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, upload } from './documents.test-support';

const KB = 1024;
const MB = 1024 * KB;
let server: TestServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-quota-'));
  server = await startTestServer({ dataDir, env: { JOB_CONCURRENCY: '0', STORAGE_QUOTA_MB: '1' } });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function storedFiles(): string[] {
  const root = path.join(dataDir, 'blobs');
  return fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile()) : [];
}

describe('the storage quota', () => {
  it("counts a person's documents across their personalities, says what is used, and frees room on delete", async () => {
    const owner = await server.user();
    const first = await createPersonality(owner, 'First');
    const second = await createPersonality(owner, 'Second');
    const a = await upload(owner, first, [{ name: 'a.txt', data: 'a'.repeat(600 * KB) }]);
    expect(a.body.results[0]).toMatchObject({ ok: true });
    const filesBefore = storedFiles().length;

    // The same person's other personality shares the quota: 600 KB + 600 KB passes 1 MB.
    const b = await upload(owner, second, [
      { name: 'b.txt', data: 'b'.repeat(600 * KB) },
      { name: 'small.txt', data: 'c'.repeat(100 * KB) },
    ]);
    expect(b.status).toBe(200);
    expect(b.body.results[0]).toEqual({ fileName: 'b.txt', ok: false, error: messages.documents.storageFull('b.txt', 600 * KB, MB) });
    expect(b.body.results[0].error).toBe(
      'There is no room for b.txt: your documents already take 0.6 MB of your 1 MB. Delete documents you no longer need to make room.',
    );
    expect(b.body.results[1]).toMatchObject({ ok: true, document: { fileName: 'small.txt' } });
    // The refused file is not left in storage; the small one is there.
    expect(storedFiles().length).toBe(filesBefore + 1);
    expect((await owner.get(`/api/personalities/${second}/documents`)).body.documents.map((d: { fileName: string }) => d.fileName)).toEqual(['small.txt']);

    // Someone else has their own quota.
    const other = await server.user();
    const theirs = await createPersonality(other, 'Theirs');
    expect((await upload(other, theirs, [{ name: 'x.txt', data: 'x'.repeat(900 * KB) }])).body.results[0]).toMatchObject({ ok: true });

    // Deleting a document makes room again.
    const aId = a.body.results[0].document.id as string;
    expect((await owner.delete(`/api/personalities/${first}/documents/${aId}`)).status).toBe(200);
    expect((await upload(owner, second, [{ name: 'b.txt', data: 'b'.repeat(600 * KB) }])).body.results[0]).toMatchObject({ ok: true });
  });

  it('lets only what fits through when one person uploads in parallel', async () => {
    const owner = await server.user();
    const pid = await createPersonality(owner);
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => upload(owner, pid, [{ name: `p${i}.txt`, data: String(i).repeat(400 * KB) }])),
    );
    const accepted = answers.filter((r) => r.body.results[0].ok).length;
    expect(accepted).toBe(2);
    const list = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents as { sizeBytes: number }[];
    expect(list.reduce((n, d) => n + d.sizeBytes, 0)).toBeLessThanOrEqual(MB);
  });
});
