// Helpers for the documents tests (not a test file itself): uploads through real multipart,
// waiting for processing, and tiny fixture files made in code.
import { expect, type TestContext } from 'vitest';
import { zipSync } from 'fflate';
import type { TestClient, TestServer } from '../../test-support/test-server';

export interface UploadFile {
  name: string;
  data: string | Uint8Array;
  type?: string;
}

export async function upload(client: TestClient, personalityId: string, files: UploadFile[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) {
    const blob = new Blob([typeof f.data === 'string' ? f.data : new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' });
    form.append('files', blob, f.name);
  }
  // A kept-alive socket the server closed while this process was busy (test client and server
  // share one event loop) resets before the request is read: that, and only that, is retried.
  const res = await retryOnReset(() => client.raw(`/api/personalities/${personalityId}/documents`, { method: 'POST', body: form }));
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

export async function createPersonality(owner: TestClient, name = 'Ada'): Promise<string> {
  const res = await owner.post('/api/personalities', { name });
  expect(res.status).toBe(201);
  return res.body.personality.id as string;
}

export async function retryOnReset<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (attempt >= 2 || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw err;
    }
  }
}

/** Uploads one file and returns its document id (asserting it was accepted). */
export async function uploadOne(client: TestClient, personalityId: string, file: UploadFile, fields?: Record<string, string>): Promise<string> {
  const res = await upload(client, personalityId, [file], fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.results[0], JSON.stringify(res.body)).toMatchObject({ ok: true });
  return res.body.results[0].document.id as string;
}

/** Polls the owner's list until the document reaches one of `statuses` (ready, failed...). */
export async function waitForDocument(
  owner: TestClient,
  personalityId: string,
  documentId: string,
  statuses: string[] = ['ready'],
  timeoutMs = 30_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const res = await retryOnReset(() => owner.get(`/api/personalities/${personalityId}/documents`));
    last = res.body.documents?.find((d: { id: string }) => d.id === documentId);
    if (last && statuses.includes(last.status)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`document ${documentId} did not reach ${statuses.join('/')}: ${JSON.stringify(last)}`);
}

/** A minimal valid PDF with one page per entry of `pages`, each showing that text. */
export function makePdf(pages: string[]): Uint8Array {
  const objects: string[] = [];
  const kids: string[] = [];
  const pageCount = pages.length;
  // 1: catalog, 2: pages, 3: font, then per page: page object + content stream.
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((text, i) => {
    const pageId = 4 + i * 2;
    const contentId = pageId + 1;
    kids.push(`${pageId} 0 R`);
    const escaped = text.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
    const stream = `BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET`;
    objects[pageId] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`;
    objects[contentId] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pageCount} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** A minimal .docx (a zip with the three parts Word and mammoth need). */
export function makeDocx(paragraphs: string[], extra: Record<string, Uint8Array> = {}): Uint8Array {
  const enc = (s: string) => new TextEncoder().encode(s);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join('');
  return zipSync({
    '[Content_Types].xml': enc(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': enc(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': enc(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
    ...extra,
  });
}

/**
 * Skips a test that needs pgvector when the database has none (Debian's PostgreSQL 15 ships no
 * pgvector package, so the PostgreSQL run lacks it). These tests hold a job mid-way through its
 * embedding step, or query vectors, so they have nothing to measure there; the PGlite run, which
 * bundles pgvector, always runs them.
 */
export function skipWithoutVector(ctx: TestContext, server: TestServer): void {
  if (!server.database.hasVector) ctx.skip('this database has no pgvector; the PGlite run covers the embedding path');
}
