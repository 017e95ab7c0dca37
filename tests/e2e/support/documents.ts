// Documents for the browser flows: a tiny valid PDF made in code (the same construction as the
// server suite's documents.test-support.ts, which imports vitest and so cannot be shared here),
// and the upload and status routes used to set up a flow quickly.
import { expect, type APIRequestContext } from '@playwright/test';
import { originHeaders } from './accounts';

/** A minimal valid PDF with one page per entry of `pages`, each showing that text. */
export function makePdf(pages: string[]): Buffer {
  const objects: string[] = [];
  const kids: string[] = [];
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
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
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
  return Buffer.from(out, 'latin1');
}

export interface DocumentAnswer {
  id: string;
  fileName: string;
  status: string;
  isPrivate: boolean;
  chunkCount: number;
}

/** Uploads one file as the owner signed in on `request`; returns the new document. */
export async function uploadViaApi(request: APIRequestContext, personalityId: string, name: string, buffer: Buffer, mimeType = 'text/plain') {
  const res = await request.post(`/api/personalities/${personalityId}/documents`, {
    multipart: { files: { name, mimeType, buffer } },
    headers: originHeaders(),
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { results: ({ ok: true; document: DocumentAnswer } | { ok: false; error: string })[] };
  const result = body.results[0]!;
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return (result as { document: DocumentAnswer }).document;
}

export async function listDocumentsViaApi(request: APIRequestContext, personalityId: string): Promise<DocumentAnswer[]> {
  const res = await request.get(`/api/personalities/${personalityId}/documents`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { documents: DocumentAnswer[] }).documents;
}

/** Waits until the document is Ready (chunked), through the owner's list. */
export async function waitUntilReadyViaApi(request: APIRequestContext, personalityId: string, documentId: string) {
  await expect
    .poll(async () => (await listDocumentsViaApi(request, personalityId)).find((d) => d.id === documentId)?.status, {
      timeout: 30_000,
    })
    .toBe('ready');
}

/** Shares the personality with a registered e-mail (the level becomes "shared"). */
export async function shareViaApi(request: APIRequestContext, personalityId: string, email: string) {
  const res = await request.post(`/api/personalities/${personalityId}/shares`, { data: { email }, headers: originHeaders() });
  expect(res.status(), await res.text()).toBe(201);
}
