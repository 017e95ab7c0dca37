// An upload whose body stops arriving part-way (a client that sends most of a 10 MB recording and
// then falls silent, on purpose or not) is given up after UPLOAD_IDLE_TIMEOUT_MS with 408 and the
// connection closed, instead of holding what it sent until Node's 5-minute request timeout, on
// every route that reads an upload's body. A slow upload that keeps arriving is not cut.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../test-support/test-server';
import { createPersonality } from '../modules/conversations/conversations.test-support';
import { startVoiceServer, toneWav16, type VoiceTestServer } from '../modules/voice/voice.test-support';

const IDLE_MS = 500;

let v: VoiceTestServer;
let owner: TestClient & { id: string };
let personalityId: string;

beforeAll(async () => {
  v = await startVoiceServer({ env: { UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
  owner = await v.server.user();
  personalityId = await createPersonality(owner, 'Patient Nova', { voiceProvider: 'openai', voice: 'nova' });
});
afterAll(async () => {
  await v?.close();
});

interface RawAnswer {
  status: number | undefined;
  body: string;
  /** The server closed the connection. */
  closed: boolean;
  ms: number;
}

/**
 * A POST over a bare socket, so the body can stop part-way: the head declares `declared` bytes,
 * then `parts` are sent `gapMs` apart. Resolves when the server closes the connection (or, unless
 * `untilClosed`, once a whole answer came), or with what came by `waitMs` (closed: false).
 */
function rawPost(path: string, contentType: string, declared: number, parts: Buffer[], { gapMs = 0, waitMs, untilClosed = true }: { gapMs?: number; waitMs: number; untilClosed?: boolean }): Promise<RawAnswer> {
  const url = new URL(v.server.url);
  const cookie = [...owner.cookies].map(([k, val]) => `${k}=${val}`).join('; ');
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      socket.destroy();
      resolve({ status: status ? Number(status) : undefined, body: text.split('\r\n\r\n').slice(1).join('\r\n\r\n'), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d) => {
      received.push(d);
      // A whole answer on a connection kept open is enough when closing is not awaited.
      const text = Buffer.concat(received).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, end))?.[1];
      if (!untilClosed && end >= 0 && length && Buffer.byteLength(text) - end - 4 >= Number(length)) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${url.origin}\r\nCookie: ${cookie}\r\nContent-Type: ${contentType}\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    void (async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(part);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    })();
  });
}

/** A multipart body with one file part (and fields before it), and its boundary's content type. */
function multipart(fileField: string, fileName: string, file: Buffer, fields: Record<string, string> = {}) {
  const boundary = '----kindred-stall-test';
  const head = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const body = Buffer.concat([
    Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The body's first `sent` bytes are sent, then nothing more. */
const stalledAfter = (body: Buffer, sent: number) => [body.subarray(0, sent)];

function expectGivenUp(answer: RawAnswer) {
  expect(answer.status, answer.body).toBe(408);
  expect(JSON.parse(answer.body).error.message).toMatch(/stopped arriving/i);
  expect(answer.closed).toBe(true);
  // Given up after the idle time, not at Node's request timeout.
  expect(answer.ms).toBeGreaterThanOrEqual(IDLE_MS - 50);
}

const WAIT_MS = IDLE_MS + 4000;

describe('an upload whose body stops arriving', () => {
  it('Self-paced Chat transcription: 408 after the idle time, the connection closed', async () => {
    const wav = Buffer.alloc(2 * 1024 * 1024, 1);
    const answer = await rawPost(`/api/personalities/${personalityId}/voice/transcribe`, 'audio/wav', wav.length, stalledAfter(wav, wav.length - 4096), { waitMs: WAIT_MS });
    expectGivenUp(answer);
  });

  it('open mic turn (multipart): 408 after the idle time', async () => {
    const { body, contentType } = multipart('audio', 'turn.wav', Buffer.alloc(2 * 1024 * 1024, 1), { request: '{}' });
    const answer = await rawPost(`/api/personalities/${personalityId}/voice/turn`, contentType, body.length, stalledAfter(body, body.length - 4096), { waitMs: WAIT_MS });
    expectGivenUp(answer);
  });

  it('document upload: 408 after the idle time', async () => {
    const { body, contentType } = multipart('files', 'notes.txt', Buffer.alloc(2 * 1024 * 1024, 'a'.charCodeAt(0)));
    const answer = await rawPost(`/api/personalities/${personalityId}/documents`, contentType, body.length, stalledAfter(body, body.length - 4096), { waitMs: WAIT_MS });
    expectGivenUp(answer);
    // Nothing half-uploaded became a document.
    const list = await owner.get(`/api/personalities/${personalityId}/documents`);
    expect(JSON.stringify(list.body)).not.toContain('notes.txt');
  });

  it('audio document upload: 408 after the idle time', async () => {
    const wav = Buffer.from(toneWav16(30));
    const { body, contentType } = multipart('file', 'talk.wav', wav, { title: 'A talk' });
    const answer = await rawPost(`/api/personalities/${personalityId}/documents/audio`, contentType, body.length, stalledAfter(body, body.length - 4096), { waitMs: WAIT_MS });
    expectGivenUp(answer);
  });

  it('character card import: 408 after the idle time', async () => {
    const { body, contentType } = multipart('file', 'card.json', Buffer.alloc(2 * 1024 * 1024, ' '.charCodeAt(0)));
    const answer = await rawPost('/api/personalities/import', contentType, body.length, stalledAfter(body, body.length - 4096), { waitMs: WAIT_MS });
    expectGivenUp(answer);
  });

  it('a slow upload that keeps arriving is not cut', async () => {
    v.openai.setAudio({ transcript: 'Slow and steady' });
    const wav = Buffer.from(toneWav16(1));
    // Eight pieces, each well inside the idle time, the whole well past it.
    const size = Math.ceil(wav.length / 8);
    const parts = Array.from({ length: 8 }, (_, i) => wav.subarray(i * size, (i + 1) * size));
    const answer = await rawPost(`/api/personalities/${personalityId}/voice/transcribe`, 'audio/wav', wav.length, parts, { gapMs: IDLE_MS / 3, waitMs: 15_000, untilClosed: false });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.ms).toBeGreaterThan(IDLE_MS * 2);
    expect(JSON.parse(answer.body).text).toBe('Slow and steady');
  });
});
