// The PGlite worker thread and its client: what drizzle relies on must behave as PGlite itself
// does (rows, SQLSTATE codes, transactions that commit, roll back and keep other statements out).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgliteThread, type PgliteThread } from './pglite-thread';

let db: PgliteThread;
beforeAll(async () => {
  db = await startPgliteThread(null);
  await db.exec('create table t (id int primary key, note text, at timestamptz default now())');
});
afterAll(async () => {
  await db?.close();
});

describe('PGlite in its own thread', () => {
  it('returns rows as objects or arrays, and leaves the types drizzle parses itself as text', async () => {
    await db.query('insert into t (id, note) values ($1, $2)', [1, 'one']);
    const objects = await db.query<{ id: number; note: string }>('select id, note from t where id = $1', [1]);
    expect(objects.rows).toEqual([{ id: 1, note: 'one' }]);
    const arrays = await db.query('select id, at from t where id = 1', [], { rowMode: 'array', parsers: { 1184: (v: string) => v } });
    const [id, at] = arrays.rows[0] as [number, unknown];
    expect(id).toBe(1);
    expect(typeof at).toBe('string');
    expect(() => db.query('select 1', [], { parsers: { 1184: (v: string) => new Date(v) } })).toThrow(/custom parser/);
  });

  it('keeps the SQLSTATE code and details of a database error', async () => {
    const err = (await db.query('insert into t (id, note) values (1, $1)', ['dup']).catch((e: unknown) => e)) as Error & { code?: string; constraint?: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('t_pkey');
  });

  it('commits a transaction, rolls back a failed one, and holds other statements until it ends', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (2, $1)', ['two']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t (id, note) values (3, $1)', ['three']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const ids = (await db.query<{ id: number }>('select id from t order by id')).rows.map((r) => r.id);
    expect(ids).toEqual([1, 2]);

    // A statement sent while a transaction is open runs after it, and sees what it committed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const open = db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (4, $1)', ['four']);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = db.query<{ n: number }>('select count(*)::int as n from t');
    let outsideDone = false;
    void outside.then(() => (outsideDone = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outsideDone).toBe(false);
    release();
    await open;
    expect((await outside).rows[0]!.n).toBe(3);
  });

  it('fails calls clearly once closed', async () => {
    const other = await startPgliteThread(null);
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/closed/);
  });
});
