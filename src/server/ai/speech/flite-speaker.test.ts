// The embedded voice's queue (real flite in its own process): one piece at a time, a bounded wait,
// cancelled requests dropped, and a dead flite process replaced without taking the server with it.
import { setMaxListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createFliteSpeaker, FliteBusyError, type FliteSpeaker } from './flite-speaker';
import { createFliteTextToSpeech, fliteWasmPath } from './flite-text-to-speech';
import { SpeechProviderError } from './speech-types';

const LONG = 'Hello there friend, how are you today? '.repeat(200);
const isWav = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WAVE';
const dataBytes = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(40, true);

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

const wasm = fliteWasmPath();
let speaker: FliteSpeaker | undefined;
afterEach(() => speaker?.close());

describe.skipIf(!wasm)('flite speaker', () => {
  it('speaks a long text in pieces joined into one WAV', async () => {
    speaker = createFliteSpeaker(wasm!, { maxPieceChars: 300 });
    const short = await speaker.synthesize('Hello there friend, how are you today?');
    const before = speaker.piecesSynthesized;
    const long = await speaker.synthesize(LONG.slice(0, 1200));
    expect(speaker.piecesSynthesized - before).toBeGreaterThanOrEqual(4);
    expect(isWav(long)).toBe(true);
    expect(dataBytes(long)).toBe(long.length - 44);
    // About thirty times the sentence's audio (flite's pauses between pieces aside).
    expect(dataBytes(long)).toBeGreaterThan(dataBytes(short) * 20);
  });

  it('drops cancelled requests: the next visitor is served after at most the piece already running', async () => {
    speaker = createFliteSpeaker(wasm!, { maxWaiting: 30, maxPieceChars: 300 });
    const visitor = new AbortController();
    // One listener per request: twenty requests on one signal is this test's doing, not a leak.
    setMaxListeners(30, visitor.signal);
    const abandoned = Array.from({ length: 20 }, () => speaker!.synthesize(LONG.slice(0, 2500), visitor.signal));
    const settled = Promise.allSettled(abandoned);
    // The first request's first piece is under way (or done) when the visitor leaves.
    await until(() => speaker!.piecesSynthesized >= 1);
    visitor.abort();
    const atAbort = speaker.piecesSynthesized;
    const results = await settled;
    expect(results.every((r) => r.status === 'rejected')).toBe(true);

    const hi = await speaker.synthesize('Hi.');
    expect(isWav(hi)).toBe(true);
    // At most the piece that was running when the visitor left, then "Hi." itself.
    expect(speaker.piecesSynthesized - atAbort).toBeLessThanOrEqual(2);
  });

  it('rejects a request cancelled before it was made without synthesizing anything', async () => {
    speaker = createFliteSpeaker(wasm!);
    const gone = AbortSignal.abort();
    await expect(speaker.synthesize('Hello.', gone)).rejects.toThrow();
    expect(speaker.piecesSynthesized).toBe(0);
  });

  it('refuses clearly once the queue is full, and the route is told the voice is busy', async () => {
    speaker = createFliteSpeaker(wasm!, { maxWaiting: 2, maxPieceChars: 300 });
    const accepted = [speaker.synthesize(LONG.slice(0, 600)), speaker.synthesize('One.'), speaker.synthesize('Two.')];
    await expect(speaker.synthesize('Three.')).rejects.toBeInstanceOf(FliteBusyError);
    const tts = createFliteTextToSpeech(speaker);
    const refusal = await tts.synthesize('Four.', 'flite').catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(SpeechProviderError);
    expect((refusal as SpeechProviderError).kind).toBe('rate_limit');
    expect((refusal as SpeechProviderError).message).toMatch(/busy/);
    for (const wav of await Promise.all(accepted)) expect(isWav(wav)).toBe(true);
    // Room again once the queue drained.
    expect(isWav(await speaker.synthesize('Five.'))).toBe(true);
  });

  it('fails only the request whose flite process died, and speaks the next one with a new process', async () => {
    speaker = createFliteSpeaker(wasm!, { maxPieceChars: 300 });
    const dying = speaker.synthesize(LONG.slice(0, 2500));
    const next = speaker.synthesize('Still here.');
    await until(() => speaker!.piecesSynthesized >= 1);
    const firstProcess = speaker.processId!;
    // As a V8 fatal or the kernel's OOM killer would end it.
    process.kill(firstProcess, 'SIGKILL');
    await expect(dying).rejects.toThrow(/stopped/);
    expect(isWav(await next)).toBe(true);
    expect(speaker.processId).toBeDefined();
    expect(speaker.processId).not.toBe(firstProcess);
  });

  it('speaks a piece again in a new process when flite crashed on it (a fault, not a kill)', async () => {
    speaker = createFliteSpeaker(wasm!, { maxPieceChars: 300 });
    const crashing = speaker.synthesize(LONG.slice(0, 2500));
    await until(() => speaker!.piecesSynthesized >= 1);
    const firstProcess = speaker.processId!;
    // As flite's WASI run does now and then on its own.
    process.kill(firstProcess, 'SIGSEGV');
    const wav = await crashing;
    expect(isWav(wav)).toBe(true);
    expect(speaker.processId).not.toBe(firstProcess);
  });

  it('fails a piece that crashes its second process too', async () => {
    speaker = createFliteSpeaker(wasm!, { maxPieceChars: 300 });
    expect(isWav(await speaker.synthesize('Warm up.'))).toBe(true);
    const crashing = speaker.synthesize('Hello there friend, how are you today?');
    const first = speaker.processId!;
    process.kill(first, 'SIGSEGV');
    await until(() => speaker!.processId !== undefined && speaker!.processId !== first);
    process.kill(speaker.processId!, 'SIGSEGV');
    await expect(crashing).rejects.toThrow(/stopped \(SIGSEGV\)/);
  });
});
