// An upload cut off partway (the tab closed mid-import, a dropped connection, a chunked body that
// ends inside a file part) ends that request alone: the server keeps answering. Before, busboy's
// "Unexpected end of file" on a file part nobody listened to for errors took the process down.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../test-support/test-server';
import { createPersonality } from '../modules/documents/documents.test-support';

let server: TestServer;
let owner: TestClient;
let personalityId: string;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.user();
  personalityId = await createPersonality(owner);
});
afterAll(async () => {
  await server?.close();
});

const BOUNDARY = '----kindredcutoff';

/** The start of a multipart body: `field` carries a file whose bytes never finish. */
function partialForm(field: string, fileName: string): Buffer {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.alloc(256 * 1024, 0x61)]);
}

type CutOff = 'connection dropped' | 'body ends early';

/** Sends the request over a raw socket and cuts it off as `how` says; resolves once the socket is done. */
function sendCutOff(urlPath: string, field: string, fileName: string, how: CutOff): Promise<void> {
  const { hostname, port, origin } = new URL(server.url);
  const cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const body = partialForm(field, fileName);
  const framing =
    how === 'connection dropped'
      ? `Content-Length: ${body.length * 4}` // promises more than it sends
      : 'Transfer-Encoding: chunked';
  const head = `POST ${urlPath} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${origin}\r\nCookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n${framing}\r\n\r\n`;
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(head);
      if (how === 'connection dropped') {
        socket.write(body, () => setTimeout(() => socket.destroy(), 150));
      } else {
        // A well-formed chunked body that ends inside the file part (no closing boundary).
        socket.write(`${body.length.toString(16)}\r\n`);
        socket.write(body);
        socket.write('\r\n0\r\n\r\n');
        setTimeout(() => socket.destroy(), 600);
      }
    });
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}

const routes = (id: string): [string, string, string][] => [
  ['/api/personalities/import', 'file', 'card.json'],
  ['/api/personalities/import/preview', 'file', 'card.png'],
  [`/api/personalities/${id}/documents`, 'files', 'notes.txt'],
  [`/api/personalities/${id}/documents/audio`, 'file', 'talk.wav'],
  [`/api/personalities/${id}/voice/turn`, 'audio', 'turn.wav'],
  [`/api/personalities/${id}/voice/clone`, 'file', 'sample.wav'],
];

describe('an upload cut off partway', () => {
  for (const how of ['connection dropped', 'body ends early'] as const) {
    it(`ends that request alone when the ${how}, on every upload route`, async () => {
      for (const [urlPath, field, fileName] of routes(personalityId)) {
        await sendCutOff(urlPath, field, fileName, how);
        // Give the parser time to see the end (an error on an unheard file part crashed the process).
        await new Promise((r) => setTimeout(r, 100));
        const health = await owner.get('/api/health');
        expect(health.status, `${urlPath} after the ${how}`).toBe(200);
      }
      // What was saved before is still there, and nothing half-uploaded became a document.
      expect((await owner.get(`/api/personalities/${personalityId}`)).status).toBe(200);
      const docs = await owner.get(`/api/personalities/${personalityId}/documents`);
      expect(docs.status).toBe(200);
      expect(docs.body.documents).toEqual([]);
    });
  }
});

describe('a card past 10 MB sent without a length (chunked)', () => {
  it('is refused while it streams and the server keeps answering', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(partialForm('file', 'huge.json')));
        for (let i = 0; i < 44; i++) controller.enqueue(new Uint8Array(256 * 1024).fill(0x61));
        controller.close();
      },
    });
    const res = await owner.raw('/api/personalities/import/preview', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/larger than 10 MB/);
    await new Promise((r) => setTimeout(r, 100));
    expect((await owner.get('/api/health')).status).toBe(200);
  });
});
