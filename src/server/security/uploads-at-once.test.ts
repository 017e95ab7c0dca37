// Upload bodies open at once per address and per user (uploads-at-once.ts): a client dripping
// bytes into many uploads at once can no longer hold a connection and a buffer for each; one more
// is refused at once with 429, and once one ends there is room again.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { startTestServer, type TestClient, type TestServer } from '../test-support/test-server';
import { createPersonality } from '../modules/documents/documents.test-support';

let server: TestServer;
let owner: TestClient;
let other: TestClient;
let personalityId: string;
let othersPersonalityId: string;
beforeAll(async () => {
  server = await startTestServer({ env: { UPLOADS_AT_ONCE_PER_CLIENT: '2', TRUSTED_PROXIES: '127.0.0.1' } });
  owner = await server.user();
  other = await server.user();
  personalityId = await createPersonality(owner);
  othersPersonalityId = await createPersonality(other);
});
afterAll(async () => {
  await server?.close();
});

const BOUNDARY = '----kindredatonce';
const open: net.Socket[] = [];
afterAll(() => open.forEach((s) => s.destroy()));

/**
 * Starts a document upload over a raw socket from `address` (X-Forwarded-For, the test server
 * trusting loopback as its proxy) and sends part of it. Resolves with the socket and the status
 * line of the answer once one arrives (never, while the body is still awaited).
 */
function startUpload(client: TestClient, id: string, address: string) {
  const { hostname, port, origin } = new URL(server.url);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`;
  const socket = net.connect(Number(port), hostname);
  open.push(socket);
  let answer = '';
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n\r\n')) resolve(answer);
    });
    socket.on('close', () => resolve(answer));
  });
  socket.on('error', () => {});
  socket.write(
    `POST /api/personalities/${id}/documents HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${origin}\r\nCookie: ${cookie}\r\n` +
      `X-Forwarded-For: ${address}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 1000000\r\n\r\n${head}Some words, `,
  );
  return { socket, answered };
}

const statusOf = (answer: string) => Number(answer.split(' ')[1]);
/** Whether an answer came within a moment (a held upload answers nothing while its body is awaited). */
const answerWithin = (answered: Promise<string>, ms: number) => Promise.race([answered, new Promise<null>((r) => setTimeout(() => r(null), ms))]);

describe('uploads open at once', () => {
  it('refuses one more upload per address and per user with 429, and makes room when one ends', async () => {
    const first = startUpload(owner, personalityId, '203.0.113.5');
    const second = startUpload(owner, personalityId, '203.0.113.5');
    // Both are being read: no answer while their bodies are awaited.
    expect(await answerWithin(first.answered, 500)).toBeNull();
    expect(await answerWithin(second.answered, 10)).toBeNull();

    // A third from that address (another person behind it too) is refused at once, with the reason.
    const third = startUpload(other, othersPersonalityId, '203.0.113.5');
    const refused = await third.answered;
    expect(statusOf(refused)).toBe(429);
    expect(refused).toContain(messages.errors.tooManyUploadsAtOnce);
    // The same person from another address is refused too (counted per user as well).
    const elsewhere = await startUpload(owner, personalityId, '198.51.100.7').answered;
    expect(statusOf(elsewhere)).toBe(429);
    // Someone else, elsewhere, is not affected.
    const unaffected = startUpload(other, othersPersonalityId, '198.51.100.8');
    expect(await answerWithin(unaffected.answered, 500)).toBeNull();
    unaffected.socket.destroy();

    // One of the two ends (the client went away): there is room for the next.
    first.socket.destroy();
    let next: ReturnType<typeof startUpload> | undefined;
    await expect
      .poll(async () => {
        next?.socket.destroy();
        next = startUpload(owner, personalityId, '203.0.113.5');
        return answerWithin(next.answered, 300);
      })
      .toBeNull();
    second.socket.destroy();
    next?.socket.destroy();
  });
});
