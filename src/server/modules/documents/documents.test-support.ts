// Helpers for the documents tests (not a test file itself): uploads through real multipart,
// waiting for processing, and tiny fixture files made in code.
import crypto from 'node:crypto';
import { expect } from 'vitest';
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

/** POSTs a multipart form of fields and one file (field `fileField`), parsing a JSON answer. */
export async function postFileForm(
  client: TestClient,
  urlPath: string,
  fileField: string,
  file: { name: string; data: Uint8Array | string } | undefined,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(fileField, new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)]), file.name);
  const res = await retryOnReset(() => client.raw(urlPath, { method: 'POST', body: form }));
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
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


/**
 * A multipart form sent as a stream, for watching what the server does with a file while it is
 * still arriving: after `pause.at` bytes of file data the stream waits for `pause.until()`, then
 * sends the rest, or with `cutOff` fails as a dropped connection would.
 */
export function streamedForm(
  files: { field: string; name: string; data: Uint8Array }[],
  pause: { at: number; until: () => Promise<void>; cutOff?: boolean },
): RequestInit {
  const boundary = `----kindred${crypto.randomUUID()}`;
  const pieces: Uint8Array[] = [];
  const STEP = 1024 * 1024;
  for (const file of files) {
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    for (let at = 0; at < file.data.length; at += STEP) pieces.push(file.data.subarray(at, at + STEP));
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  let sent = 0;
  let paused = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= pause.at && !paused) {
        paused = true;
        await pause.until();
        if (pause.cutOff) return controller.error(new Error('connection cut'));
      }
      const next = pieces.shift();
      if (!next) return controller.close();
      controller.enqueue(next);
      sent += next.length;
    },
  });
  return { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body, duplex: 'half' } as RequestInit;
}
