// The server's handle on the PGlite worker thread (pglite.worker.ts): a client with the part of
// PGlite's interface drizzle's PGlite driver uses (query, exec, transaction), each call sent to
// the worker and answered there. A transaction is a conversation: 'begin' opens it in the worker,
// its statements name it, and 'end' commits it or rolls it back.
import type { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import { startTsWorker } from '../../lib/ts-worker';
import { deserializeError, type PgliteRequest, type PgliteResponse, type PgliteStarted, type PgliteWorkerData } from './protocol';

const workerUrl = new URL('./pglite.worker.ts', import.meta.url).href;

type Pending = { resolve(value: unknown): void; reject(err: Error): void };
type Request = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

/** The statements a transaction's callback runs, as PGlite's Transaction offers them. */
export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

export interface PgliteThread extends ThreadTransaction {
  transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * drizzle passes parsers that keep dates, timestamps and intervals as PostgreSQL's text (it parses
 * them itself). Functions cannot cross to the worker, so the worker is told which types to leave
 * as text; any other parser would be lost, and is refused here rather than silently ignored.
 */
function textTypes(parsers: QueryOptions['parsers']): number[] {
  if (!parsers) return [];
  return Object.entries(parsers).map(([oid, parse]) => {
    const probe = 'probe-value';
    if (parse(probe, Number(oid)) !== probe) throw new Error(`a custom parser for type ${oid} cannot run in the database thread`);
    return Number(oid);
  });
}

/** `image`: with no data folder, a dumped one (a tar file) the in-memory database starts from. */
export async function startPgliteThread(dataDir: string | null, image?: string): Promise<PgliteThread> {
  const worker: Worker = startTsWorker(workerUrl, { workerData: { dataDir, image: image ?? null } satisfies PgliteWorkerData });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let nextTx = 1;
  let stopped: Error | null = null;

  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`the database thread stopped while starting (exit code ${code})`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (msg: PgliteStarted) => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      if (msg.started) resolve();
      else reject(deserializeError(msg.error));
    });
  });

  worker.on('message', (msg: PgliteResponse) => {
    const call = pending.get(msg.id);
    if (!call) return;
    pending.delete(msg.id);
    if (msg.ok) call.resolve(msg.result);
    else call.reject(deserializeError(msg.error));
  });
  // A crashed database fails what was waiting on it and everything after, loudly.
  const fail = (err: Error) => {
    stopped ??= err;
    for (const call of pending.values()) call.reject(stopped);
    pending.clear();
  };
  worker.on('error', (err) => fail(new Error(`the database thread failed: ${err.message}`)));
  worker.on('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));

  function call<T>(req: Request): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...req, id });
    });
  }

  function statements(txId: number | null): ThreadTransaction {
    return {
      query: (sql, params = [], options = {}) =>
        call({ op: 'query', txId, sql, params, rowMode: options.rowMode ?? 'object', textTypes: textTypes(options.parsers) }),
      exec: (sql) => call({ op: 'exec', txId, sql }),
    };
  }

  return {
    ...statements(null),
    async transaction(callback) {
      const txId = nextTx++;
      await call({ op: 'begin', txId });
      let result;
      try {
        result = await callback(statements(txId));
      } catch (err) {
        await call({ op: 'end', txId, commit: false }).catch(() => {});
        throw err;
      }
      await call({ op: 'end', txId, commit: true });
      return result;
    },
    async close() {
      if (stopped) return;
      await call({ op: 'close' });
      stopped = new Error('the database is closed');
      await worker.terminate();
    },
  };
}
