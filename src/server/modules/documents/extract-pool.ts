// One extraction worker thread, reused between files and replaced when a file kills it: a heap
// limit (resourceLimits) bounds memory, a timer bounds time (the worker is terminated), and files
// are handed over one at a time so a slow one fails alone.
import type { Worker } from 'node:worker_threads';
import type { ExtractLimits, ExtractRequest, ExtractResponse, ExtractTask } from './extract-protocol';
import type { Logger } from '../../lib/logger';
import { startTsWorker } from '../../lib/ts-worker';

export interface ExtractPoolOptions {
  timeoutMs: number;
  memoryMb: number;
  limits: ExtractLimits;
  logger: Logger;
  /** Stop an idle worker after this long (frees the parsers' memory). */
  idleMs?: number;
}

interface Task {
  req: ExtractTask;
  /** The input's size, taken before its bytes are handed to the worker. */
  size: number;
  resolve(res: ExtractResponse): void;
}

export interface ExtractPool {
  /**
   * With `handOver`, the caller gives up the bytes: when they fill their own buffer they move to
   * the worker without a copy (a 10 MB file is then held once, not twice) and are unusable after.
   */
  run(task: ExtractTask, options?: { handOver?: boolean }): Promise<ExtractResponse>;
  close(): Promise<void>;
}

const workerUrl = new URL('./extract.worker.ts', import.meta.url).href;
/**
 * An idle worker is stopped after this long: a large file leaves ~100 MB in its heap, which the
 * server would otherwise carry through the whole database write that follows (the peak memory of
 * ingesting 10 MB fell by about that much). A stream of files keeps it busy, so it is rarely respawned.
 */
const IDLE_MS = 1000;
/** Bytes (or characters) from which a task counts as large: see finish(). */
const LARGE_INPUT = 1024 * 1024;

function inputSize(task: ExtractTask): number {
  return task.op === 'extract' ? task.bytes.byteLength : task.text.length;
}

export function createExtractPool(opts: ExtractPoolOptions): ExtractPool {
  const queue: Task[] = [];
  let worker: Worker | null = null;
  let ready: Promise<void> | null = null;
  let running: { id: number; task: Task; timer: NodeJS.Timeout } | null = null;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | null = null;
  let closed = false;

  function spawn(): Promise<void> {
    const w = startTsWorker(workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: opts.memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    worker = w;
    return new Promise<void>((resolve, reject) => {
      w.on('message', (msg: ExtractResponse | { ready: true }) => {
        if ('ready' in msg) return resolve();
        if (running && running.id === msg.id) finish(msg);
      });
      w.on('error', (err) => {
        const oom = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
        if (!oom) opts.logger.warn('extraction worker failed', err);
        if (worker === w) worker = null;
        ready = null;
        reject(err);
        if (running) finish({ id: running.id, ok: false, failure: oom ? 'out_of_memory' : 'corrupt' });
      });
      w.on('exit', () => {
        if (worker === w) {
          worker = null;
          ready = null;
          if (running) finish({ id: running.id, ok: false, failure: 'corrupt' });
        }
      });
    });
  }

  function finish(res: ExtractResponse) {
    if (!running) return;
    clearTimeout(running.timer);
    const { task } = running;
    running = null;
    task.resolve(res);
    // After a large input with nothing waiting, stop at once: its heap is many times the input.
    if (queue.length === 0 && task.size >= LARGE_INPUT && worker) stopIdleWorker();
    pump();
  }

  function pump() {
    if (running || closed) return;
    const task = queue.shift();
    if (!task) {
      scheduleIdleStop();
      return;
    }
    if (idleTimer) clearTimeout(idleTimer);
    const id = nextId++;
    const timer = setTimeout(() => {
      // Too slow: stop the worker (and whatever it is stuck in); the next file gets a new one.
      const w = worker;
      worker = null;
      ready = null;
      finish({ id, ok: false, failure: 'timeout' });
      void w?.terminate();
    }, opts.timeoutMs);
    running = { id, task, timer };
    ready ??= spawn();
    ready.then(
      () => {
        if (running?.id !== id || !worker) return;
        const req: ExtractRequest = { ...task.req, id, limits: opts.limits };
        worker.postMessage(req, req.op === 'extract' ? [req.bytes.buffer as ArrayBuffer] : []);
      },
      () => {
        if (running?.id === id) finish({ id, ok: false, failure: 'corrupt' });
      },
    );
  }

  function stopIdleWorker() {
    const w = worker;
    worker = null;
    ready = null;
    void w?.terminate();
  }

  function scheduleIdleStop() {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(stopIdleWorker, opts.idleMs ?? IDLE_MS);
    idleTimer.unref();
  }

  return {
    run(task, options) {
      if (closed) return Promise.resolve({ id: 0, ok: false, failure: 'corrupt' });
      // Bytes are transferred to the worker: a private copy, unless the caller handed over a
      // buffer that is theirs alone (a small Buffer may share Node's pool with others).
      const movable = task.op === 'extract' && options?.handOver && task.bytes.byteOffset === 0 && task.bytes.byteLength === task.bytes.buffer.byteLength;
      const req: ExtractTask = task.op === 'extract' && !movable ? { ...task, bytes: new Uint8Array(task.bytes) } : task;
      return new Promise((resolve) => {
        queue.push({ req, resolve, size: inputSize(req) });
        pump();
      });
    },
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      for (const task of queue.splice(0)) task.resolve({ id: 0, ok: false, failure: 'corrupt' });
      if (running) finish({ id: running.id, ok: false, failure: 'corrupt' });
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}
