// The upload readers give up a body that stops arriving: after the idle time they stop waiting,
// cancel the body and let go of what they had buffered (a stalled 10 MB recording no longer sits
// in memory until the connection dies). A body that keeps arriving, however slowly, is read whole.
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { HTTPException } from 'hono/http-exception';
import { readSingleFileForm, setUploadIdleTimeout, streamSingleFileForm, uploadIdleTimeout } from './single-file-form';
import { readAudioBody } from '../modules/voice/voice-upload';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const IDLE_MS = 150;
const defaultIdle = uploadIdleTimeout();
afterEach(() => setUploadIdleTimeout(defaultIdle));

const boundary = 'stall-test-boundary';
// A fresh one per request: a chunk the test itself holds would always look held.
const formHead = () =>
  Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nA title\r\n--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
);
const formTail = Buffer.from(`\r\n--${boundary}--\r\n`);

/**
 * A request whose body sends `chunks`, `gapMs` apart, then (unless `ends`) nothing more, ever.
 * Tells whether the body was cancelled, and holds the chunks it sent only weakly.
 */
function requestOf(contentType: string, chunks: () => Uint8Array[], { gapMs = 0, ends = false } = {}) {
  const sent: WeakRef<Uint8Array>[] = [];
  let cancelled = false;
  let pending = chunks();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending.shift();
      if (!next) {
        if (ends) controller.close();
        else await new Promise(() => {}); // stalled: the client sends nothing more
        return;
      }
      if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      sent.push(new WeakRef(next));
      controller.enqueue(next);
    },
    cancel() {
      cancelled = true;
      pending = [];
    },
  });
  const request = new Request('http://localhost/upload', { method: 'POST', headers: { 'content-type': contentType }, body, duplex: 'half' } as RequestInit);
  return {
    request,
    cancelled: () => cancelled,
    /** How many of the chunks sent are still held by someone. */
    stillHeld: async () => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((r) => setTimeout(r, 10));
      }
      return sent.filter((ref) => ref.deref() !== undefined).length;
    },
  };
}

const megabytes = (n: number) => Array.from({ length: n }, () => new Uint8Array(1024 * 1024).fill(1));

async function expectStalled(reading: Promise<unknown>, startedAt: number) {
  const err = await Promise.race([
    reading.then(
      () => 'read whole',
      (e: unknown) => e,
    ),
    new Promise((r) => setTimeout(() => r('still waiting'), IDLE_MS + 3000)),
  ]);
  expect(err).toBeInstanceOf(HTTPException);
  expect((err as HTTPException).status).toBe(408);
  expect((err as HTTPException).message).toMatch(/stopped arriving/i);
  expect(Date.now() - startedAt).toBeGreaterThanOrEqual(IDLE_MS - 20);
}

describe('a body that stops arriving', () => {
  it('raw audio (Self-paced Chat): 408 after the idle time, the body cancelled and its bytes let go', async () => {
    setUploadIdleTimeout(IDLE_MS);
    const upload = requestOf('audio/wav', () => megabytes(4));
    await expectStalled(readAudioBody(upload.request), Date.now());
    expect(upload.cancelled()).toBe(true);
    expect(await upload.stillHeld()).toBe(0);
  });

  it('a multipart form kept in memory (open mic turn, voice sample): the same', async () => {
    setUploadIdleTimeout(IDLE_MS);
    const upload = requestOf(`multipart/form-data; boundary=${boundary}`, () => [formHead(), ...megabytes(4)]);
    await expectStalled(readSingleFileForm(upload.request, 10 * 1024 * 1024), Date.now());
    expect(upload.cancelled()).toBe(true);
    expect(await upload.stillHeld()).toBe(0);
  });

  it('a multipart form streamed on (audio documents): the file part is ended with an error', async () => {
    setUploadIdleTimeout(IDLE_MS);
    const upload = requestOf(`multipart/form-data; boundary=${boundary}`, () => [formHead(), ...megabytes(2)]);
    let fileError: unknown;
    const reading = streamSingleFileForm(upload.request, 10 * 1024 * 1024, (stream) => {
      stream.on('error', (e) => (fileError = e));
      stream.resume();
    });
    await expectStalled(reading, Date.now());
    expect(upload.cancelled()).toBe(true);
    await new Promise((r) => setImmediate(r)); // a stream's error is emitted on the next tick
    expect(fileError).toBeInstanceOf(Error);
  });
});

describe('a body that arrives slowly but steadily', () => {
  it('raw audio is read whole', async () => {
    setUploadIdleTimeout(IDLE_MS);
    const pieces = () => Array.from({ length: 6 }, (_, i) => new Uint8Array(1000).fill(i));
    const upload = requestOf('audio/wav', pieces, { gapMs: IDLE_MS / 3, ends: true });
    const started = Date.now();
    const audio = await readAudioBody(upload.request);
    expect(Date.now() - started).toBeGreaterThan(IDLE_MS);
    expect(audio.byteLength).toBe(6000);
    expect(audio[5500]).toBe(5);
  });

  it('a multipart form is read whole', async () => {
    setUploadIdleTimeout(IDLE_MS);
    const file = Buffer.alloc(6000, 7);
    const pieces = () => [formHead(), file.subarray(0, 2000), file.subarray(2000, 4000), file.subarray(4000), formTail];
    const upload = requestOf(`multipart/form-data; boundary=${boundary}`, pieces, { gapMs: IDLE_MS / 2, ends: true });
    const started = Date.now();
    const read = await readSingleFileForm(upload.request, 10 * 1024 * 1024);
    expect(Date.now() - started).toBeGreaterThan(IDLE_MS);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.form.fields.title).toBe('A title');
    expect(read.form.file?.bytes.equals(file)).toBe(true);
  });
});
