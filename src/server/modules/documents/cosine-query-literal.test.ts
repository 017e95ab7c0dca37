// The question's vector sent as scaled integers (toCosineQueryLiteral): pgvector's cosine against a
// stored embedding is the exact cosine, whatever the vector's length, on PGlite's bundled pgvector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { toCosineQueryLiteral, toVectorLiteral } from './chunk-search.repository';
import { cosine } from './float-vectors';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({});
});
afterAll(async () => {
  await handle?.close();
});

function randomVector(seed: number, dims = 512, length = 1): number[] {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const v = Array.from({ length: dims }, next);
  const norm = Math.hypot(...v);
  return v.map((x) => (x / norm) * length);
}

function components(literal: string): number[] {
  return literal.slice(1, -1).split(',').map(Number);
}

describe('the question vector as a cosine literal', () => {
  it('is integers, the largest component 1,000,000, whatever the vector\'s length', () => {
    for (const length of [1, 0.001, 37]) {
      const values = components(toCosineQueryLiteral(randomVector(7, 512, length)));
      expect(values).toHaveLength(512);
      expect(values.every(Number.isInteger)).toBe(true);
      expect(Math.max(...values.map(Math.abs))).toBe(1_000_000);
    }
    expect(toCosineQueryLiteral([0, Number.NaN, 0.5, -0.25, Number.POSITIVE_INFINITY])).toBe('[0,0,1000000,-500000,0]');
    expect(toCosineQueryLiteral([0, 0, 0])).toBe('[0,0,0]');
  });

  it('gives pgvector the exact cosine against stored embeddings, so the ranking is the same', async () => {
    expect(handle.vectorStore).toBe('pgvector');
    const stored = Array.from({ length: 40 }, (_, i) => randomVector(100 + i));
    // A question vector that is not unit length, and one with a component far smaller than the rest.
    const questions = [randomVector(1), randomVector(2, 512, 23.5), randomVector(3).map((x, i) => (i === 0 ? 1e-9 : x))];
    for (const q of questions) {
      const result = await handle.db.execute(sql`
        select s.i, 1 - (s.v::vector <=> ${toCosineQueryLiteral(q)}::vector) as cosine
        from (select * from unnest(${`{${stored.map(toVectorLiteral).map((l) => `"${l}"`).join(',')}}`}::text[]) with ordinality as t(v, i)) s`);
      const rows = (result as unknown as { rows: { i: string; cosine: number }[] }).rows;
      expect(rows).toHaveLength(stored.length);
      for (const r of rows) expect(Math.abs(Number(r.cosine) - cosine(stored[Number(r.i) - 1]!, q))).toBeLessThan(1e-5);
      const bySql = [...rows].sort((a, b) => Number(b.cosine) - Number(a.cosine)).map((r) => Number(r.i) - 1);
      const exact = stored.map((v, i) => ({ i, c: cosine(v, q) })).sort((a, b) => b.c - a.c).map((x) => x.i);
      expect(bySql).toEqual(exact);
    }
  });
});
