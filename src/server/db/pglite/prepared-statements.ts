// Named prepared statements for the embedded database's hot statements (issue 19). PGlite's own
// query() sends an unnamed statement through five protocol round trips (parse, describe, bind,
// describe, execute) and PostgreSQL parses and plans it every time: about half of a chat's first
// read. A statement text seen a second time is prepared under a name once; later runs send bind,
// describe, execute and sync in one call, and PostgreSQL reuses the parse (and, after its usual
// five custom plans, a generic plan when that costs no more). Measured on a statement shaped like
// the chat's first read: 1.8 ms -> 0.9 ms. Outside transactions only (a transaction's statements keep
// PGlite's own path); the text is the key, so only the same SQL with other values shares a name.
import type { PGlite } from '@electric-sql/pglite';
import { parse, protocol } from '@electric-sql/pglite';
import type { Results } from '@electric-sql/pglite';

/** Statements kept prepared, least recently used closed first. */
const MAX_PREPARED = 64;
/** Distinct texts remembered as "seen once" (a text that varies, like an IN list, is never prepared). */
const MAX_SEEN = 512;

interface Prepared {
  name: string;
  paramTypes: number[];
}

export interface QueryOptions {
  rowMode: 'array' | 'object';
  parsers: Record<number, (value: string) => unknown>;
}

/** What PGlite's query() runs under: no open transaction, and one statement at a time. */
interface Exclusive {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
}

export function createPreparedStatements(db: PGlite) {
  const prepared = new Map<string, Prepared>();
  const seen = new Set<string>();
  let next = 1;
  const exclusive = db as unknown as Exclusive;
  const s = protocol.serialize;

  async function prepare(sql: string): Promise<Prepared> {
    const name = `kindred_${next++}`;
    const reply = await db.execProtocol(concat(s.parse({ name, text: sql }), s.describe({ type: 'S', name }), s.sync()), { syncToFs: false });
    const described = reply.messages.find((m) => m.name === 'parameterDescription') as unknown as { dataTypeIDs: number[] } | undefined;
    const statement = { name, paramTypes: described?.dataTypeIDs ?? [] };
    prepared.set(sql, statement);
    if (prepared.size > MAX_PREPARED) {
      const [oldestSql, oldest] = prepared.entries().next().value!;
      prepared.delete(oldestSql);
      await db.execProtocol(concat(s.close({ type: 'S', name: oldest.name }), s.sync()), { syncToFs: false });
    }
    return statement;
  }

  /** Values as PostgreSQL's text, as PGlite's query() sends them (its serializers by parameter type). */
  function values(statement: Prepared, params: unknown[]): (string | null)[] {
    const serializers = db.serializers as Record<number, ((v: unknown) => string) | undefined>;
    return params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = serializers[statement.paramTypes[i]!];
      return serialize ? serialize(value) : String(value);
    });
  }

  const merged = new WeakMap<QueryOptions, QueryOptions['parsers']>();
  const mergedParsers = (options: QueryOptions): QueryOptions['parsers'] => {
    let parsers = merged.get(options);
    if (!parsers) {
      parsers = { ...(db.parsers as QueryOptions['parsers']), ...options.parsers };
      merged.set(options, parsers);
    }
    return parsers;
  };

  return {
    /**
     * Runs `sql` prepared when its text was seen before; undefined when it should go through
     * PGlite's own query() instead (its first sighting), which the caller then does.
     */
    async query<T>(sql: string, params: unknown[], options: QueryOptions): Promise<Results<T> | undefined> {
      const known = prepared.get(sql);
      if (!known && !seen.has(sql)) {
        seen.add(sql);
        if (seen.size > MAX_SEEN) seen.delete(seen.values().next().value!);
        return undefined;
      }
      return exclusive._runExclusiveTransaction(() =>
        exclusive._runExclusiveQuery(async () => {
          let statement = prepared.get(sql);
          if (statement) {
            // Most recently used last.
            prepared.delete(sql);
            prepared.set(sql, statement);
          } else {
            seen.delete(sql);
            statement = await prepare(sql);
          }
          let reply;
          try {
            reply = await db.execProtocol(
              concat(s.bind({ statement: statement.name, values: values(statement, params) }), s.describe({ type: 'P' }), s.execute({}), s.sync()),
              { syncToFs: false },
            );
          } catch (err) {
            // A table the statement reads changed shape since it was prepared (a migration):
            // forgotten, and this run goes through PGlite's own query().
            if (err instanceof Error && /cached plan must not change result type/.test(err.message)) {
              prepared.delete(sql);
              await db.execProtocol(concat(s.close({ type: 'S', name: statement.name }), s.sync()), { syncToFs: false });
              return undefined;
            }
            throw err;
          }
          await db.syncToFs();
          // The statement's parsers merged with the database's once per options object, not on
          // every run: parseResults copies PGlite's 318 parsers into a new object when given any
          // (~130 us a statement, measured; ~0.5 ms under a chat's load), and then reads only the merge.
          return parse.parseResults(reply.messages, mergedParsers(options) as never, { rowMode: options.rowMode } as never)[0] as Results<T>;
        }),
      );
    },
  };
}

/** Protocol messages sent in one call (Node's own concatenation: a Buffer is a Uint8Array). */
const concat = (...parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);
