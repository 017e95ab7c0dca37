// Messages between the server's thread and the PGlite worker thread (pglite-thread.ts and
// pglite.worker.ts). Everything here crosses postMessage, so it is plain data: values drizzle
// binds and rows PGlite returns clone as they are (strings, numbers, Dates, bytes, JSON objects).

/** What drizzle asks of a PGlite client: a statement, a script, or a transaction's edge. */
export type PgliteRequest =
  | {
      id: number;
      op: 'query';
      /** The open transaction this statement belongs to, or null for a statement of its own. */
      txId: number | null;
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** Type OIDs whose values are returned as PostgreSQL's text (drizzle parses them itself). */
      textTypes: number[];
    }
  | { id: number; op: 'exec'; txId: number | null; sql: string }
  | { id: number; op: 'begin'; txId: number }
  | { id: number; op: 'end'; txId: number; commit: boolean }
  | { id: number; op: 'close' };

/** A database error's fields, kept so callers can still read SQLSTATE codes (23505, ...). */
export interface SerializedError {
  message: string;
  name: string;
  fields: Record<string, string | number | undefined>;
}

export type PgliteResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError };

/** The worker's first message: the database is open and migrations may run, or it failed. */
export type PgliteStarted = { started: true } | { started: false; error: SerializedError };

export interface PgliteWorkerData {
  /** The data folder; null keeps the database in memory (tests). */
  dataDir: string | null;
  /** In memory: a data folder dumped to this tar file is loaded instead of creating a new one. */
  image: string | null;
}

/** The fields PostgreSQL puts on an error (see PGlite's DatabaseError), copied by value. */
const ERROR_FIELDS = ['code', 'severity', 'detail', 'hint', 'position', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', fields: {} };
  const fields: SerializedError['fields'] = {};
  for (const key of ERROR_FIELDS) {
    const value = (err as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { message: err.message, name: err.name, fields };
}

export function deserializeError(e: SerializedError): Error {
  const err = new Error(e.message);
  err.name = e.name;
  Object.assign(err, e.fields);
  return err;
}
