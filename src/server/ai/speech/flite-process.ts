// flite (WebAssembly, through node:wasi) in a child process of its own, not a worker thread: a V8
// fatal in WASI or WebAssembly (several flite instances at once once ended the whole server with
// "trap int3"; some texts make even one instance at a time SIGSEGV now and then) then ends only this
// process, which is replaced on the next piece. It speaks one piece
// at a time, a fresh instance each (a WASI program runs once) of the module compiled once.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PROCESS_SOURCE = `
const fs = require('node:fs');
const path = require('node:path');
const { WASI } = require('node:wasi');
const scratch = process.env.FLITE_SCRATCH;
const modulePromise = WebAssembly.compile(fs.readFileSync(process.env.FLITE_WASM));
// The server went away (even killed): nothing is left to speak for.
process.on('disconnect', () => process.exit(0));
async function speak({ id, text }) {
  const dir = fs.mkdtempSync(path.join(scratch, 'piece-'));
  try {
    const mod = await modulePromise;
    const wasi = new WASI({ version: 'preview1', args: ['flite', '-t', text, '-o', '/out/speech.wav'], env: {}, preopens: { '/out': dir }, returnOnExit: true });
    const instance = await WebAssembly.instantiate(mod, wasi.getImportObject());
    const code = wasi.start(instance);
    if (code !== 0) throw new Error('flite exited with ' + code);
    process.send({ id, wav: fs.readFileSync(path.join(dir, 'speech.wav')) });
  } catch (err) {
    process.send({ id, error: String((err && err.message) || err) });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
// One instance at a time, even if the server ever sent two pieces at once.
let turn = Promise.resolve();
process.on('message', (piece) => { turn = turn.then(() => speak(piece)); });
`;

/**
 * How a V8 or WebAssembly fault ends the process (flite's WASI run SIGSEGVs now and then on a text
 * it speaks fine the next time). A kill (the kernel's OOM killer, this file's own timeout) is not one.
 */
const CRASH_SIGNALS = new Set(['SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGTRAP', 'SIGABRT']);

/** The process ended while speaking a piece; `crashed`: by a fault, worth one more try in a new one. */
export class FliteStoppedError extends Error {
  constructor(
    why: string,
    readonly crashed: boolean,
  ) {
    super(`the embedded voice's flite process stopped (${why})`);
    this.name = 'FliteStoppedError';
  }
}

interface InFlight {
  id: number;
  resolve: (wav: Uint8Array) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** The flite process: started on first use, replaced after it died. */
export class FliteProcess {
  private child?: ChildProcess;
  private inFlight?: InFlight;
  private nextId = 1;

  constructor(
    private readonly wasmPath: string,
    /** A piece (a few sentences) takes well under a second; past this flite is stuck and is killed. */
    private readonly pieceTimeoutMs = 30_000,
  ) {}

  /** The running process's id (for tests that end it as a crash would). */
  get processId(): number | undefined {
    return this.child?.pid;
  }

  /** One piece's WAV. One at a time: the caller (flite-speaker.ts) waits for each before the next. */
  run(text: string): Promise<Uint8Array> {
    if (this.inFlight) return Promise.reject(new Error('flite is already speaking a piece'));
    const child = this.ensure();
    const id = this.nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id, new Error(`flite took longer than ${this.pieceTimeoutMs} ms`));
        child.kill('SIGKILL');
      }, this.pieceTimeoutMs);
      this.inFlight = { id, resolve, reject, timer };
      this.hold(child, true);
      child.send({ id, text }, (err) => {
        if (err) this.settle(id, new Error(`flite could not be reached (${err.message})`));
      });
    });
  }

  /** Ends the process (tests, shutdown); a later piece starts a new one. */
  close(): void {
    this.child?.kill('SIGKILL');
  }

  private ensure(): ChildProcess {
    if (this.child) return this.child;
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-flite-'));
    // Its own small environment: none of the server's secrets, and no NODE_OPTIONS (a test runner's
    // loaders) to slow its start.
    const child = spawn(process.execPath, ['--no-warnings', '-e', PROCESS_SOURCE], {
      env: { FLITE_WASM: this.wasmPath, FLITE_SCRATCH: scratch },
      // stderr is the server's: a crash's report lands in its log.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    child.on('message', (m: { id: number; wav?: Uint8Array; error?: string }) => {
      if (m.wav) this.settle(m.id, undefined, new Uint8Array(m.wav.buffer, m.wav.byteOffset, m.wav.byteLength));
      else this.settle(m.id, new Error(m.error ?? 'flite failed'));
    });
    const gone = (why: string, crashed = false) => {
      if (this.child !== child) return;
      this.child = undefined;
      fs.rmSync(scratch, { recursive: true, force: true });
      if (this.inFlight) this.settle(this.inFlight.id, new FliteStoppedError(why, crashed));
    };
    child.on('exit', (code, signal) => gone(signal ?? `exit code ${code}`, signal !== null && CRASH_SIGNALS.has(signal)));
    child.on('error', (err) => gone(err.message));
    this.child = child;
    // Idle, it never keeps the server (or a script that spoke once) from exiting.
    this.hold(child, false);
    return child;
  }

  private settle(id: number, err?: Error, wav?: Uint8Array): void {
    const p = this.inFlight;
    if (!p || p.id !== id) return;
    this.inFlight = undefined;
    clearTimeout(p.timer);
    if (this.child) this.hold(this.child, false);
    if (err || !wav) p.reject(err ?? new Error('flite failed'));
    else p.resolve(wav);
  }

  /** Held open only while a piece is under way: a script waiting for speech is not left to exit early. */
  private hold(child: ChildProcess, busy: boolean): void {
    const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
    if (busy) {
      child.ref();
      channel?.ref();
    } else {
      child.unref();
      channel?.unref();
    }
  }
}
