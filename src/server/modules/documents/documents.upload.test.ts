// Upload validation: every per-file message, partial success, limits enforced while streaming.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import { createPersonality, streamedForm, upload } from './documents.test-support';
import { makeDocx, makePdf } from '../../../../tests/fixtures/document-files';
import { UPLOAD_BODY_MAX } from './documents-upload';
import { zipSync } from 'fflate';

let server: TestServer;
let owner: Awaited<ReturnType<TestServer['user']>>;
let pid: string;
beforeAll(async () => {
  // Jobs off: these tests are about what the upload itself answers.
  server = await startTestServer({ env: { JOB_CONCURRENCY: '0' } });
  owner = await server.user();
  pid = await createPersonality(owner);
});
afterAll(async () => {
  await server?.close();
});

const MB = 1024 * 1024;

describe('document upload validation', () => {
  it('gives each file its own result, so valid files upload beside invalid ones', async () => {
    const res = await upload(owner, pid, [
      { name: 'good.txt', data: 'hello world' },
      { name: 'song.mp3', data: 'ID3...' },
      { name: 'big.txt', data: 'a'.repeat(10 * MB + 1) },
      { name: 'fake.pdf', data: 'just text pretending' },
      { name: 'binary.txt', data: new Uint8Array([0x68, 0x00, 0x69]) },
      // "你好世界" in GBK: not UTF-8, and mojibake as Windows-1252 (text-decode.ts).
      { name: 'gbk.txt', data: new Uint8Array([0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7]) },
      { name: 'empty.md', data: '' },
      { name: 'notword.docx', data: zipSync({ 'hello.txt': new TextEncoder().encode('hi') }) },
      { name: 'page.html', data: 'no markup here at all' },
      { name: 'exactly10.txt', data: 'b'.repeat(10 * MB) },
    ]);
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.results.map((r: { fileName: string }) => [r.fileName, r]));
    expect(res.body.results.map((r: { fileName: string }) => r.fileName)).toEqual([
      'good.txt', 'song.mp3', 'big.txt', 'fake.pdf', 'binary.txt', 'gbk.txt', 'empty.md', 'notword.docx', 'page.html', 'exactly10.txt',
    ]);
    expect(byName['good.txt']).toMatchObject({ ok: true, document: { fileName: 'good.txt', status: 'processing', mimeType: 'text/plain' } });
    expect(byName['exactly10.txt']).toMatchObject({ ok: true, document: { sizeBytes: 10 * MB } });
    expect(byName['song.mp3']).toEqual({ fileName: 'song.mp3', ok: false, error: messages.documents.unsupported('song.mp3') });
    expect(byName['song.mp3'].error).toBe('Only .txt files are supported. Please convert song.mp3 to plain text format. Markdown (.md), PDF, Word (.docx) and web page (.html) files are converted to text for you.');
    expect(byName['big.txt'].error).toBe('File big.txt is too large. Maximum size is 10MB.');
    expect(byName['fake.pdf'].error).toBe(messages.documents.contentMismatch('fake.pdf', 'PDF'));
    expect(byName['binary.txt'].error).toBe(messages.documents.contentMismatch('binary.txt', 'plain text (.txt)'));
    expect(byName['gbk.txt'].error).toBe(messages.documents.contentMismatch('gbk.txt', 'plain text (.txt)'));
    expect(byName['empty.md'].error).toBe(messages.documents.emptyFile('empty.md'));
    expect(byName['notword.docx'].error).toBe(messages.documents.contentMismatch('notword.docx', 'Word (.docx)'));
    expect(byName['page.html'].error).toBe(messages.documents.contentMismatch('page.html', 'HTML'));
    expect(res.body).toMatchObject({ uploaded: 2, failed: 8 });
    const list = await owner.get(`/api/personalities/${pid}/documents`);
    expect(list.body.documents.map((d: { fileName: string }) => d.fileName).sort()).toEqual(['exactly10.txt', 'good.txt']);
  });

  it('accepts real PDF and DOCX content and reports none uploaded when every file fails', async () => {
    const ok = await upload(owner, pid, [
      { name: 'a.pdf', data: makePdf(['x']) },
      { name: 'b.docx', data: makeDocx(['y']) },
    ]);
    expect(ok.body).toMatchObject({ uploaded: 2, failed: 0 });
    const none = await upload(owner, pid, [
      { name: 'a.exe', data: 'MZ' },
      { name: 'b.zip', data: 'PK' },
    ]);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ uploaded: 0, failed: 2 });
    // The UI's toast for this answer:
    expect(messages.documents.noneUploaded).toBe('Upload Failed: No files were uploaded successfully');
  });

  it('refuses more files than allowed per upload, naming the extra ones', async () => {
    const files = Array.from({ length: limits.documentUploadMaxFiles + 2 }, (_, i) => ({ name: `f${i}.txt`, data: `file ${i}` }));
    const res = await upload(owner, pid, files);
    expect(res.body.uploaded).toBe(limits.documentUploadMaxFiles);
    expect(res.body.results.slice(-2)).toEqual([
      { fileName: `f${limits.documentUploadMaxFiles}.txt`, ok: false, error: messages.documents.tooManyFiles(limits.documentUploadMaxFiles) },
      { fileName: `f${limits.documentUploadMaxFiles + 1}.txt`, ok: false, error: messages.documents.tooManyFiles(limits.documentUploadMaxFiles) },
    ]);
  });

  it('answers a request that is not multipart, or has no file, with a clear message', async () => {
    const json = await owner.post(`/api/personalities/${pid}/documents`, { files: [] });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toBe(messages.documents.notMultipart);
    const empty = await upload(owner, pid, [], { isPrivate: 'true' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe(messages.documents.noFiles);
  });

  it('marks files private when the isPrivate field comes first', async () => {
    const res = await upload(owner, pid, [{ name: 'secret.txt', data: 'diary' }], { isPrivate: 'true' });
    expect(res.body.results[0].document.isPrivate).toBe(true);
  });

  it('answers 413 from the declared length, before reading the body', async () => {
    const res = await rawUpload({ declaredLength: UPLOAD_BODY_MAX + 1, send: 64 * 1024 });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.message).toBe(messages.documents.uploadTooLarge);
    expect(res.sentBeforeAnswer).toBeLessThan(UPLOAD_BODY_MAX);
  });

  it('answers 413 while a chunked body streams past the cap, without waiting for the rest', async () => {
    const res = await rawUpload({ send: UPLOAD_BODY_MAX * 3 });
    expect(res.status).toBe(413);
    // The answer came while the client was still sending: far less than the whole body was read.
    expect(res.sentBeforeAnswer).toBeLessThan(UPLOAD_BODY_MAX * 2);
  });

  it('writes each file to disk while it arrives; a refused or cut-off file leaves no blob and no row', async () => {
    const id = await createPersonality(owner);
    const blobs = path.join(server.config.dataDir, 'blobs');
    const before = new Set(listFiles(blobs));
    const newFiles = () => listFiles(blobs).filter((f) => !before.has(f));
    const partOnDisk = (minBytes: number) => async () => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        if (newFiles().some((f) => f.endsWith('.tmp') && fs.statSync(f).size >= minBytes)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('nothing reached the disk while the body was paused');
    };
    const notes = Buffer.from('The keeper logged every storm. '.repeat(300_000)); // 9.3 MB
    // Text to its last byte, where a NUL makes it binary: refused only once it has all arrived.
    const fake = Buffer.concat([Buffer.from('plain words '.repeat(250_000)), Buffer.from([0])]);
    const files = [
      { field: 'files', name: 'notes.txt', data: notes },
      { field: 'files', name: 'fake.txt', data: fake },
    ];
    const res = await owner.raw(`/api/personalities/${id}/documents`, streamedForm(files, { at: 6 * MB, until: partOnDisk(4 * MB) }));
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.results).toEqual([
      expect.objectContaining({ fileName: 'notes.txt', ok: true }),
      { fileName: 'fake.txt', ok: false, error: messages.documents.contentMismatch('fake.txt', 'plain text (.txt)') },
    ]);
    expect(newFiles().map((f) => fs.statSync(f).size)).toEqual([notes.length]);

    // Cut off with 6 MB of the first file on disk: the temporary file goes, nothing is recorded.
    await expect(owner.raw(`/api/personalities/${id}/documents`, streamedForm(files, { at: 6 * MB, until: partOnDisk(4 * MB), cutOff: true }))).rejects.toThrow();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && newFiles().length > 1) await new Promise((r) => setTimeout(r, 50));
    expect(newFiles().map((f) => fs.statSync(f).size)).toEqual([notes.length]);
    expect((await owner.get(`/api/personalities/${id}/documents`)).body.documents).toHaveLength(1);
  });

  it('keeps file names out of paths: stored under server-made keys inside the blob folder', async () => {
    const names = ['../../../etc/passwd.txt', '/abs/path/x.txt', '..%2F..%2Fescape.txt', `${'long'.repeat(200)}.txt`, 'résumé 日本語.txt', 'C:\\Windows\\evil.txt', '.hidden.txt'];
    const res = await upload(owner, pid, names.map((name) => ({ name, data: 'content' })));
    expect(res.body.uploaded, JSON.stringify(res.body)).toBe(names.length);
    const blobs = path.join(server.config.dataDir, 'blobs');
    const stored = listFiles(blobs);
    for (const file of stored) {
      expect(path.resolve(file).startsWith(path.resolve(blobs) + path.sep)).toBe(true);
      expect(path.basename(file)).toMatch(/^\d+_[0-9a-f]{8}_[A-Za-z0-9._-]{1,100}$/);
    }
    expect(fs.existsSync(path.join(server.config.dataDir, 'etc'))).toBe(false);
    const shown = res.body.results.map((r: { fileName: string }) => r.fileName);
    expect(shown).toContain('passwd.txt');
    expect(shown).toContain('..%2F..%2Fescape.txt');
    expect(shown).toContain('résumé 日本語.txt');
    expect(shown).toContain('evil.txt');
    expect(shown.every((n: string) => n.length <= limits.documentFileNameMax)).toBe(true);
  });

  it('refuses a multipart header with a NUL byte as malformed, storing nothing', async () => {
    const before = listFiles(path.join(server.config.dataDir, 'blobs')).length;
    const res = await upload(owner, pid, [{ name: 'nul\u0000byte.txt', data: 'content' }]);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(messages.documents.uploadMalformed);
    expect(listFiles(path.join(server.config.dataDir, 'blobs')).length).toBe(before);
  });
});

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Streams a multipart body by hand and notes how much was sent when the answer arrived. */
function rawUpload(opts: { declaredLength?: number; send: number }): Promise<{ status: number; body: string; sentBeforeAnswer: number }> {
  const url = new URL(`${server.url}/api/personalities/${pid}/documents`);
  const boundary = 'XBOUNDARYX';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="huge.txt"\r\nContent-Type: text/plain\r\n\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 'a');
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const headers: Record<string, string | number> = {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: url.origin,
    };
    if (opts.declaredLength) headers['content-length'] = opts.declaredLength;
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      answered = true;
      const sentBeforeAnswer = sent;
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body, sentBeforeAnswer });
        req.destroy();
      });
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.write(head);
    sent += head.length;
    const pump = () => {
      while (!answered && sent < opts.send) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && !opts.declaredLength) req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}
