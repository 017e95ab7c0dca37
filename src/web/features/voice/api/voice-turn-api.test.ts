// What a voice turn (open mic) and a transcription (Self-paced Chat) say when the network fails,
// against a loopback server that drops the connection: the server could not be reached (spec
// section 8, Voice session: network errors), not "Failed to process recorded audio", which stays
// for an answer from the server that carries no message of its own.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../../shared/messages';
import { ApiError } from '../../../lib/api-client';
import { transcribe } from './voice-api';
import { startVoiceTurn } from './voice-turn-api';

type Behaviour = 'drop' | 'cut-before-transcript' | 'bare-500';

let behaviour: Behaviour;
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (behaviour === 'drop') return void req.socket.destroy();
      if (behaviour === 'bare-500') return void res.writeHead(500).end();
      // The answer started, then the connection was lost before the transcript arrived.
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' });
      res.write('{"type":"trans');
      setTimeout(() => res.socket?.destroy(), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  const realFetch = globalThis.fetch;
  // The page's relative URLs, to the loopback server. Node's fetch cannot send jsdom's AbortSignal,
  // Blob or FormData: the signal is left out, a Blob goes as its bytes, a form as a placeholder
  // (the server does not read the audio).
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const { signal: _signal, body, ...rest } = init;
    const sent = body instanceof Blob ? await body.arrayBuffer() : body instanceof FormData ? 'the turn form' : body;
    return realFetch(new URL(input, base), { ...rest, body: sent });
  });
});
afterEach(() => vi.unstubAllGlobals());

const wav = () => new Uint8Array(64);

async function failure(call: () => Promise<unknown>): Promise<ApiError> {
  const err = await call().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('an open-mic turn', () => {
  const turn = () => startVoiceTurn('p-1', wav(), {}, new AbortController().signal);

  it('the connection fails: the network message (the call is dropped with it)', async () => {
    behaviour = 'drop';
    const err = await failure(turn);
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe(messages.openMic.networkError);
  });

  it('the connection is lost before the transcript arrives: the network message too', async () => {
    behaviour = 'cut-before-transcript';
    const err = await failure(turn);
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe(messages.openMic.networkError);
  });

  it('the server answers with an error of no words of its own: "Failed to process recorded audio"', async () => {
    behaviour = 'bare-500';
    const err = await failure(turn);
    expect(err.status).toBe(500);
    expect(err.message).toBe(messages.voice.processRecordingFailed);
  });
});

describe("Self-paced Chat's transcription", () => {
  it('the connection fails: the network message', async () => {
    behaviour = 'drop';
    const err = await failure(() => transcribe('p-1', wav()));
    expect(err.code).toBe('NETWORK');
    expect(err.message).toBe(messages.openMic.networkError);
  });

  it('the server answers with an error of no words of its own: "Failed to process recorded audio"', async () => {
    behaviour = 'bare-500';
    const err = await failure(() => transcribe('p-1', wav()));
    expect(err.message).toBe(messages.voice.processRecordingFailed);
  });
});
