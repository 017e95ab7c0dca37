// Two app processes starting at once on a fresh PostgreSQL database: the migrations (and the
// vector extension) are applied by one of them under an advisory lock, exactly once; the other
// waits and finds them applied. Runs in the PostgreSQL pass (TEST_DATABASE_URL). The
// multi-process suite (tests/multi-process) does the same with two real server processes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { createScratchDatabase } from '../test-support/test-server';

const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const journal = JSON.parse(
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations/meta/_journal.json'), 'utf8'),
) as { entries: { tag: string }[] };

describe.skipIf(!adminUrl)('migrations under an advisory lock', () => {
  it('two processes starting at once on a fresh database apply each migration exactly once', async () => {
    const scratch = await createScratchDatabase(adminUrl!);
    cleanups.push(() => scratch.drop());
    const [one, two, three] = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: scratch.databaseUrl })));
    cleanups.push(async () => {
      for (const h of [one, two, three]) await h!.close();
    });
    const c = new pg.Client({ connectionString: scratch.databaseUrl });
    await c.connect();
    const applied = await c.query('select hash from drizzle.__drizzle_migrations');
    await c.end();
    expect(applied.rowCount).toBe(journal.entries.length);
    expect(new Set(applied.rows.map((r) => r.hash)).size).toBe(journal.entries.length);
    // All three see the same database, with pgvector or without it alike.
    expect(new Set([one, two, three].map((h) => h!.hasVector)).size).toBe(1);
  });
});
