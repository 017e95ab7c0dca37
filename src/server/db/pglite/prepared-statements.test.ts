// The embedded database's prepared statements (prepared-statements.ts), through the worker thread
// as the server uses it: a statement seen again runs prepared and answers exactly as PGlite's own
// query() does, errors keep their codes, open transactions keep it out, a changed table is
// followed, and only a bounded number stay prepared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgliteThread, type PgliteThread } from './pglite-thread';

let db: PgliteThread;
beforeAll(async () => {
  db = await startPgliteThread(null);
  await db.exec('create table p (id int primary key, note text, at timestamptz default now(), tags text[])');
});
afterAll(async () => {
  await db?.close();
});

const preparedCount = async () => Number((await db.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements where not from_sql')).rows[0]!.n);

describe('prepared statements', () => {
  it('answers a repeated statement as the first run did: rows, arrays, text-kept types, nulls and arrays as parameters', async () => {
    await db.query('insert into p (id, note, tags) values ($1, $2, $3)', [1, 'one', ['a', 'b']]);
    await db.query('insert into p (id, note, tags) values ($1, $2, $3)', [2, null, ['c']]);
    await db.query('insert into p (id, note, tags) values ($1, $2, $3)', [3, 'three', []]);
    const before = await preparedCount();
    const select = 'select id, note, tags, at from p where id = $1 or note = $2 order by id';
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await db.query(select, [2, 'three'], { rowMode: 'array', parsers: { 1184: (v: string) => v } }));
    expect(await preparedCount()).toBeGreaterThan(before);
    for (const run of runs) {
      expect(run.rows).toEqual(runs[0]!.rows);
      expect(run.fields.map((f) => f.name)).toEqual(['id', 'note', 'tags', 'at']);
    }
    const [row2, row3] = runs[3]!.rows as [number, string | null, string[], string][];
    expect(row2.slice(0, 3)).toEqual([2, null, ['c']]);
    expect(row3.slice(0, 3)).toEqual([3, 'three', []]);
    expect(typeof row2[3]).toBe('string');
    const objects = [];
    for (let i = 0; i < 3; i++) objects.push((await db.query<{ id: number; tags: string[] }>('select id, tags from p where $1::text[] && tags', [['a', 'c']])).rows);
    expect(objects).toEqual([objects[0], objects[0], objects[0]]);
    expect(objects[0]).toEqual([
      { id: 1, tags: ['a', 'b'] },
      { id: 2, tags: ['c'] },
    ]);
    // Writes report what they changed.
    const updates = [];
    for (let i = 0; i < 3; i++) updates.push((await db.query('update p set note = $1 where id = $2', [`n${i}`, 3])).affectedRows);
    expect(updates).toEqual([1, 1, 1]);
  });

  it('keeps the SQLSTATE code of an error, and works on after it', async () => {
    const insert = 'insert into p (id, note) values ($1, $2)';
    for (let i = 0; i < 3; i++) {
      const err = (await db.query(insert, [1, 'duplicate']).catch((e: unknown) => e)) as Error & { code?: string };
      expect(err).toBeInstanceOf(Error);
      expect(err.code).toBe('23505');
    }
    await db.query(insert, [10, 'ten']);
    expect((await db.query<{ note: string }>('select note from p where id = $1', [10])).rows).toEqual([{ note: 'ten' }]);
  });

  it('waits for an open transaction instead of running inside it', async () => {
    const count = 'select count(*)::int as n from p where note = $1';
    await db.query(count, ['inside']);
    await db.query(count, ['inside']); // prepared from here on
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => (inserted = resolve));
    const tx = db.transaction(async (t) => {
      await t.query('insert into p (id, note) values (20, $1)', ['inside']);
      inserted();
      await held;
      throw new Error('roll back');
    });
    await didInsert;
    const outside = db.query<{ n: number }>(count, ['inside']);
    release();
    await expect(tx).rejects.toThrow('roll back');
    // Run after the transaction rolled back: never saw its row.
    expect((await outside).rows).toEqual([{ n: 0 }]);
  });

  it('follows a table that changed shape since the statement was prepared', async () => {
    await db.exec('create table shape (id int)');
    await db.query('insert into shape values (1)');
    const all = 'select * from shape where id = $1';
    await db.query(all, [1]);
    expect((await db.query(all, [1])).rows).toEqual([{ id: 1 }]);
    await db.exec("alter table shape add column label text default 'x'");
    expect((await db.query(all, [1])).rows).toEqual([{ id: 1, label: 'x' }]);
    expect((await db.query(all, [1])).rows).toEqual([{ id: 1, label: 'x' }]);
  });

  it('keeps a bounded number prepared, and a statement closed for room is prepared again', async () => {
    for (let i = 0; i < 80; i++) for (let run = 0; run < 2; run++) await db.query(`select $1::int + ${i} as v`, [run]);
    expect(await preparedCount()).toBeLessThanOrEqual(64);
    const again = [];
    for (let run = 0; run < 3; run++) again.push((await db.query<{ v: number }>('select $1::int + 0 as v', [run])).rows[0]!.v);
    expect(again).toEqual([0, 1, 2]);
  });
});
