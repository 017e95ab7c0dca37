// Documents for the browser flows: the upload and status routes used to set up a flow quickly.
// Fixture files (a tiny valid PDF) come from tests/fixtures, shared with the server suite.
import { expect, type APIRequestContext } from '@playwright/test';
import { originHeaders } from './accounts';

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
