// The embedded embedding model: the offline default when EMBEDDING_MODEL is not set. It runs in a
// worker thread of its own (embedded-model.worker.ts), so embedding a document never blocks
// requests; the thread and its model (~1.3 s to load, ~230 MB) start on the first use and are
// shared by every app in the process (tests create many). A question waits at most for the pass in
// progress, and questions waiting together share the next pass (embed-queue.ts). An embed whose
// signal aborts (a stopping server, a job that lost its lease) rejects at once and tells the thread
// to drop the request: a stop does not wait for a document's batch (minutes under load, past a
// container's grace period), and the thread's late answer for it, if any, is ignored.
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../../lib/ts-worker';
import { EmbeddingError, type EmbeddingClient } from '../embeddings';
import type { EmbedCancel, EmbedRequest, EmbedResponse } from './embedded-protocol';
import { settleOrAbort } from '../../lib/abort-listener';

/** Recorded beside every vector it makes: the package and its version name the weights. */
export const EMBEDDED_MODEL_ID = 'embedded:use-lite-512@energetic-ai-0.2.0';

const workerUrl = new URL('./embedded-model.worker.ts', import.meta.url).href;

export interface EmbeddedEmbeddings extends EmbeddingClient {
  /** Starts the thread and loads the model now (otherwise the first embed does). */
  warm(): Promise<void>;
  /** Stops the thread; a later embed starts it again. */
  close(): Promise<void>;
}

export function createEmbeddedEmbeddings(): EmbeddedEmbeddings {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve(v: number[][]): void; reject(e: Error): void }>();

  function start(): Worker {
    if (worker) return worker;
    const w = startTsWorker(workerUrl);
    // Idle, the thread must not keep the process alive (a finished test run, a stopped server).
    w.unref();
    w.on('message', (msg: EmbedResponse | { ready: true }) => {
      if ('ready' in msg) return;
      const p = pending.get(msg.id);
      if (!p) return; // cancelled: its late answer is dropped
      pending.delete(msg.id);
      if (pending.size === 0) w.unref();
      if (!msg.ok) return p.reject(new EmbeddingError(`the embedded model failed: ${msg.error}`));
      const out: number[][] = [];
      for (let i = 0; i < msg.vectors.length; i += msg.dimensions) out.push(Array.from(msg.vectors.subarray(i, i + msg.dimensions)));
      p.resolve(out);
    });
    const fail = (err: Error) => {
      if (worker === w) worker = null;
      for (const p of pending.values()) p.reject(new EmbeddingError(`the embedded model stopped: ${err.message}`));
      pending.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`exit ${code}`)));
    worker = w;
    return w;
  }

  function embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return Promise.resolve([]);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const w = start();
    const id = nextId++;
    return new Promise<number[][]>((resolve, reject) => {
      const onAbort = () => {
        if (!pending.delete(id)) return;
        // Nothing more is awaited from the thread for it: idle, it no longer holds the process.
        if (pending.size === 0) w.unref();
        w.postMessage({ cancel: id } satisfies EmbedCancel);
        reject(signal!.reason);
      };
      pending.set(id, settleOrAbort(signal, { resolve, reject }, onAbort));
      // Busy: keep the process alive until the answer comes.
      w.ref();
      w.postMessage({ id, texts } satisfies EmbedRequest);
    });
  }

  return {
    model: EMBEDDED_MODEL_ID,
    embed,
    async warm() {
      await embed(['warm']);
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}

let shared: EmbeddedEmbeddings | undefined;

/** The process's one embedded model (every app in a process shares it: it is large). */
export function sharedEmbeddedEmbeddings(): EmbeddedEmbeddings {
  shared ??= createEmbeddedEmbeddings();
  return shared;
}
