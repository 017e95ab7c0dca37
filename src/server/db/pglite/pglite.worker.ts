// The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: every
// statement runs synchronously on the thread that owns it. On the server's thread, that work
// (about half of a chat request's CPU, all of a document's indexing) would stop every other
// request; here it runs beside them, on the machine's other core. Statements are served as they
// arrive; PGlite itself runs one at a time and holds others back while a transaction is open.
import { parentPort, workerData } from 'node:worker_threads';
import v8 from 'node:v8';
import fs from 'node:fs';
import type { PGlite as PGliteInstance, Transaction } from '@electric-sql/pglite';
import { serializeError, type PgliteRequest, type PgliteResponse, type PgliteStarted, type PgliteWorkerData } from './protocol';
import type { QueryOptions } from './prepared-statements';

const port = parentPort!;
const { dataDir, image } = workerData as PgliteWorkerData;

/**
 * PGlite touches all of PostgreSQL's shared buffers at start (its default, 128 MB, was a third of
 * an idle server's memory). Its data files live in the operating system's page cache anyway, so a
 * smaller buffer pool costs little: ingesting 10 MB took the same time with 16 MB.
 */
const SETTINGS = ['shared_buffers=16MB'];

/** Rejects a transaction's callback so PGlite rolls it back; not an error to report. */
const ROLLBACK = Symbol('rollback');

// PostgreSQL's WebAssembly is compiled by V8's baseline compiler only. Optimizing its hot
// functions as well held about 70 MB more after ingesting 10 MB of text, and measured no faster
// on this workload (bench/first-token: p95 at 10 conversations 125 ms against 135 ms; ingestion
// the same). Set before PGlite's module is compiled, hence the import below, not at the top.
v8.setFlagsFromString('--liftoff-only');
const { PGlite } = await import('@electric-sql/pglite');
const { vector } = await import('@electric-sql/pglite-pgvector');
const { createPreparedStatements } = await import('./prepared-statements');

/**
 * The dumped folder as PGlite reads it, which is only through arrayBuffer(). Node 20's own Blob
 * hands out a 40 MB one in about 0.5 s (chunked reads, then a concatenation), a third of the
 * load; this one hands over the file's bytes.
 */
function imageBlob(file: string): Blob {
  const bytes = fs.readFileSync(file);
  // A file this large is read into a buffer of its own; sliced only if it ever shares one.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const arrayBuffer = async () => (whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return Object.assign(new Blob([], { type: 'application/x-tar' }), { arrayBuffer });
}

let db: PGliteInstance;
try {
  const options = { extensions: { vector }, postgresqlconf: SETTINGS };
  // A new in-memory database runs initdb (about 3 s); loading a dumped one, about 0.6 s.
  const loadDataDir = !dataDir && image ? imageBlob(image) : undefined;
  db = dataDir ? await PGlite.create(dataDir, options) : await PGlite.create({ ...options, ...(loadDataDir ? { loadDataDir } : {}) });
  await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
  port.postMessage({ started: true } satisfies PgliteStarted);
} catch (err) {
  port.postMessage({ started: false, error: serializeError(err) } satisfies PgliteStarted);
  process.exit(1);
}

const statements = createPreparedStatements(db);

interface OpenTransaction {
  tx: Transaction;
  finish(commit: boolean): void;
  /** Settles when PGlite has committed or rolled back. */
  settled: Promise<void>;
}
const transactions = new Map<number, OpenTransaction>();

function beginTransaction(txId: number): Promise<void> {
  return new Promise((opened, failed) => {
    let finish!: (commit: boolean) => void;
    const body = new Promise<void>((resolve, reject) => {
      finish = (commit) => (commit ? resolve() : reject(ROLLBACK));
    });
    const settled = db.transaction(async (tx) => {
      transactions.set(txId, { tx, finish, settled });
      opened();
      await body;
    });
    // BEGIN itself failed (the callback never ran): the caller learns it from 'begin'.
    settled.catch((err: unknown) => {
      if (!transactions.has(txId)) failed(err);
    });
  });
}

async function endTransaction(txId: number, commit: boolean): Promise<void> {
  const open = transactions.get(txId);
  if (!open) throw new Error(`no open transaction ${txId}`);
  open.finish(commit);
  try {
    await open.settled;
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  } finally {
    transactions.delete(txId);
  }
}

/** The client a statement runs on: its transaction's, or the database's. */
function target(txId: number | null): Pick<PGliteInstance, 'query' | 'exec'> {
  if (txId === null) return db;
  const open = transactions.get(txId);
  if (!open) throw new Error(`no open transaction ${txId}`);
  return open.tx;
}

const asText = (value: string) => value;

/**
 * The options for a statement, one object per shape: drizzle asks for the same few (its date and
 * time types kept as text) on every statement, and prepared-statements.ts keeps its merged parsers
 * per options object.
 */
const optionsByShape = new Map<string, QueryOptions>();
function queryOptions(rowMode: QueryOptions['rowMode'], textTypes: number[]): QueryOptions {
  const key = `${rowMode}:${textTypes.join(',')}`;
  let options = optionsByShape.get(key);
  if (!options) {
    options = { rowMode, parsers: Object.fromEntries(textTypes.map((oid) => [oid, asText])) };
    optionsByShape.set(key, options);
  }
  return options;
}

async function handle(req: PgliteRequest): Promise<unknown> {
  switch (req.op) {
    case 'query': {
      const options = queryOptions(req.rowMode, req.textTypes);
      // Outside a transaction, a statement seen before runs prepared (prepared-statements.ts).
      if (req.txId === null) {
        const result = await statements.query(req.sql, req.params, options);
        if (result) return result;
      }
      return target(req.txId).query(req.sql, req.params, options);
    }
    case 'exec':
      return target(req.txId).exec(req.sql);
    case 'begin':
      return beginTransaction(req.txId);
    case 'end':
      return endTransaction(req.txId, req.commit);
    case 'close':
      await db.close();
      return null;
  }
}

port.on('message', (req: PgliteRequest) => {
  handle(req).then(
    (result) => port.postMessage({ id: req.id, ok: true, result } satisfies PgliteResponse),
    (err: unknown) => port.postMessage({ id: req.id, ok: false, error: serializeError(err) } satisfies PgliteResponse),
  );
});
