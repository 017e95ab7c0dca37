// Hostile files end with a clear error (or a bounded success) and never take the server down:
// a zip bomb in a .docx, a PDF with thousands of pages, a 10 MB single line, absurdly nested HTML.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';
import { makeDocx, makePdf } from '../../../../tests/fixtures/document-files';

let server: TestServer;
let owner: Awaited<ReturnType<TestServer['user']>>;
let pid: string;
beforeAll(async () => {
  server = await startTestServer({ env: { JOB_POLL_MS: '50' } });
  owner = await server.user();
  pid = await createPersonality(owner);
});
afterAll(async () => {
  await server?.close();
});

/**
 * A .docx whose document.xml inflates to `mb` megabytes (a few hundred KB on disk), and whose zip
 * headers lie about it (they declare 1 KB), so only really inflating it can tell.
 */
function zipBombDocx(mb: number): Uint8Array {
  const entries: [string, Buffer, number][] = [
    ['[Content_Types].xml', zlib.deflateRawSync('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'), 0],
    ['word/document.xml', zlib.deflateRawSync(Buffer.alloc(mb * 1024 * 1024, 0x41), { level: 1 }), 1024],
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data, declared] of entries) {
    const n = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared || data.length * 4, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared || data.length * 4, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += local.length + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, eocd]));
}

async function healthy() {
  const res = await server.client().get('/api/health');
  expect(res.status).toBe(200);
}

describe('hostile documents', () => {
  it('stops a zip bomb in a .docx before unpacking it', async () => {
    const bomb = zipBombDocx(200);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await new Promise((r) => setTimeout(r, 20)); // let sockets settle after the busy loop above
    const id = await uploadOne(owner, pid, { name: 'bomb.docx', data: bomb });
    const doc = await waitForDocument(owner, pid, id, ['failed', 'ready'], 60_000);
    expect(doc.status).toBe('failed');
    expect(doc.error).toBe(messages.documents.extractTooBigUnpacked('bomb.docx'));
    await healthy();
  });

  it('refuses a PDF with thousands of pages', async () => {
    const pages = Array.from({ length: 3000 }, (_, i) => `p${i}`);
    const id = await uploadOne(owner, pid, { name: 'endless.pdf', data: makePdf(pages) });
    const doc = await waitForDocument(owner, pid, id, ['failed', 'ready'], 60_000);
    expect(doc.status).toBe('failed');
    expect(doc.error).toBe(messages.documents.extractTooManyPages('endless.pdf', server.config.documents.extractMaxPages));
    await healthy();
  });

  it('chunks a 10 MB single line into bounded chunks while the server keeps answering', async () => {
    const line = 'x'.repeat(10 * 1024 * 1024);
    const id = await uploadOne(owner, pid, { name: 'line.txt', data: line });
    await healthy();
    const doc = await waitForDocument(owner, pid, id, ['ready', 'failed'], 120_000);
    expect(doc.status).toBe('ready');
    expect(doc.chunkCount).toBeGreaterThanOrEqual(Math.ceil(line.length / server.config.documents.chunkSize));
    const page = await owner.get(`/api/personalities/${pid}/documents/${id}/chunks?limit=5`);
    expect(page.body.chunks.every((c: { content: string }) => c.content.length <= server.config.documents.chunkSize)).toBe(true);
  });

  it('survives absurdly nested HTML and a corrupt .docx', async () => {
    const nested = `<html><body>${'<div>'.repeat(100_000)}deep &amp; text<script>x()</script>${'</div>'.repeat(100_000)}</body></html>`;
    const html = await uploadOne(owner, pid, { name: 'nested.html', data: nested });
    const htmlDoc = await waitForDocument(owner, pid, html, ['ready', 'failed'], 90_000);
    expect(htmlDoc.status).toBe('ready');
    const chunks = await owner.get(`/api/personalities/${pid}/documents/${html}/chunks`);
    expect(chunks.body.chunks.map((c: { content: string }) => c.content)).toEqual(['deep & text']);
    // A .docx whose zip structure is fine but whose document.xml stream is garbage.
    const broken = makeDocx([Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')]);
    const at = Buffer.from(broken).indexOf('word/document.xml') + 'word/document.xml'.length;
    broken.fill(0xff, at + 4, at + 40);
    const bad = await uploadOne(owner, pid, { name: 'broken.docx', data: broken });
    const badDoc = await waitForDocument(owner, pid, bad, ['ready', 'failed']);
    expect(badDoc).toMatchObject({ status: 'failed', error: messages.documents.extractFailed('broken.docx') });
    const res = await uploadOne(owner, pid, { name: 'real.docx', data: makeDocx(['Real words here.']) });
    const ok = await waitForDocument(owner, pid, res, ['ready', 'failed']);
    expect(ok.status).toBe('ready');
    await healthy();
  });
});

describe('extraction time limit', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ env: { JOB_POLL_MS: '50', EXTRACT_TIMEOUT_MS: '1' } });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('stops an extraction that takes too long, with a clear error', async () => {
    const user = await slow.user();
    const p = await createPersonality(user);
    const id = await uploadOne(user, p, { name: 'slow.pdf', data: makePdf(['text']) });
    const doc = await waitForDocument(user, p, id, ['failed', 'ready']);
    expect(doc.error).toBe(messages.documents.extractTimeout('slow.pdf'));
  });
});
