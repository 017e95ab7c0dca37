// The embedded database has no autovacuum: housekeeping vacuums what autovacuum would, so a deleted
// document's space is used again instead of the data folder growing for good, including for rows
// deleted before a restart (PGlite's statistics start empty). PostgreSQL runs its own autovacuum.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rows, startTestServer, type TestClient, type TestServer } from '../test-support/test-server';
import { createPersonality, uploadOne, waitForDocument } from '../modules/documents/documents.test-support';
import { vacuumDue, vacuumEmbedded } from './embedded-vacuum';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** About 400 chunks of prose: paragraphs of ~900 characters, each unlike the others. */
const LIBRARY = Array.from({ length: 400 }, (_, p) =>
  Array.from({ length: 12 }, (_, s) => `Paragraph ${p} sentence ${s} tells of the ${['mill', 'river', 'orchard', 'harbour'][s % 4]} in the year ${1800 + p}.`).join(' '),
).join('\n\n');

const CHUNKS = 'personality_document_chunks';

/** The chunks table's size on disk, with its indexes and TOAST. */
async function chunksBytes(server: TestServer): Promise<number> {
  const [row] = await rows<{ bytes: number | string }>(server, sql`select pg_total_relation_size(${CHUNKS}::regclass) as bytes`);
  return Number(row!.bytes);
}

/** PostgreSQL publishes a statement's row counts about a second after it; wait for the deletion's. */
async function deadChunks(server: TestServer, atLeast: number): Promise<void> {
  await expect
    .poll(async () => Number((await rows<{ dead: number }>(server, sql`select n_dead_tup as dead from pg_stat_user_tables where relname = ${CHUNKS}`))[0]?.dead ?? 0), {
      timeout: 15_000,
      interval: 250,
    })
    .toBeGreaterThanOrEqual(atLeast);
}

async function addLibrary(owner: TestClient, personalityId: string, server: TestServer): Promise<{ documentId: string; chunks: number }> {
  const documentId = await uploadOne(owner, personalityId, { name: 'library.txt', data: LIBRARY, type: 'text/plain' });
  await waitForDocument(owner, personalityId, documentId, ['ready'], 60_000);
  const [row] = await rows<{ n: number }>(server, sql`select count(*)::int as n from personality_document_chunks where document_id = ${documentId}`);
  return { documentId, chunks: row!.n };
}

describe('the rules autovacuum follows', () => {
  it('vacuums a table with more dead rows than 50 and a fifth of its live ones', () => {
    expect(vacuumDue({ live: 0, dead: 50, inserted: 0 })).toBe(false);
    expect(vacuumDue({ live: 0, dead: 51, inserted: 0 })).toBe(true);
    expect(vacuumDue({ live: 1000, dead: 250, inserted: 0 })).toBe(false);
    expect(vacuumDue({ live: 1000, dead: 251, inserted: 0 })).toBe(true);
  });

  it('and one that only grew by more than 1,000 rows and a fifth of its live ones', () => {
    expect(vacuumDue({ live: 1000, dead: 0, inserted: 1200 })).toBe(false);
    expect(vacuumDue({ live: 1000, dead: 0, inserted: 1201 })).toBe(true);
  });
});

describe.skipIf(process.env.TEST_DATABASE_URL)('the embedded database (no autovacuum)', () => {
  it("a deleted document's space is used again once the tables due are vacuumed; tables not due are left", { timeout: 180_000 }, async () => {
    // No housekeeping timer: its first pass (a minute after start, everything) would vacuum the
    // table before the rule is asked, on a machine slow enough to take a minute to get there.
    const server = await startTestServer({ env: { EMBEDDING_MODEL: 'none' }, start: { housekeeping: false } });
    cleanups.push(() => server.close());
    const owner = await server.user();
    const personalityId = await createPersonality(owner);

    const first = await addLibrary(owner, personalityId, server);
    expect(first.chunks).toBeGreaterThan(300);
    const withLibrary = await chunksBytes(server);
    expect((await owner.delete(`/api/personalities/${personalityId}/documents/${first.documentId}`)).status).toBe(200);
    await deadChunks(server, first.chunks);

    const vacuumed = await vacuumEmbedded(server.database.db, { everything: false });
    expect(vacuumed).toContain(CHUNKS);
    // One dead row each (the document, its text): not worth a pass, as autovacuum would judge.
    expect(vacuumed).not.toContain('personality_documents');
    expect(vacuumed).not.toContain('personalities');

    // The same library again fits in the space the first one left (without the vacuum, the table
    // doubles: deleted rows' space is never reused).
    await addLibrary(owner, personalityId, server);
    expect(await chunksBytes(server)).toBeLessThan(withLibrary * 1.2);

    // A second pass: the same statements again (prepared by now), nothing due is left out.
    expect(await vacuumEmbedded(server.database.db, { everything: true })).toEqual(expect.arrayContaining([CHUNKS, 'personalities', 'conversation_messages']));
  });

  it('rows deleted before a restart are found by the first pass after it (statistics start empty)', { timeout: 240_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-vacuum-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    // No housekeeping: nothing vacuums before the restart.
    const before = await startTestServer({ dataDir, env: { EMBEDDING_MODEL: 'none' }, start: { housekeeping: false } });
    let withLibrary: number;
    let personalityId: string;
    try {
      const owner = await before.user('keeper@example.com', 'secret-pass');
      personalityId = await createPersonality(owner);
      const first = await addLibrary(owner, personalityId, before);
      withLibrary = await chunksBytes(before);
      expect((await owner.delete(`/api/personalities/${personalityId}/documents/${first.documentId}`)).status).toBe(200);
    } finally {
      await before.close();
    }

    const after = await startTestServer({ dataDir, env: { EMBEDDING_MODEL: 'none', HOUSEKEEPING_INTERVAL_MS: '1000' } });
    cleanups.push(() => after.close());
    // The deletion is not in the new process's statistics: the rule alone would not find it.
    const [counted] = await rows<{ live: number; dead: number; inserted: number }>(
      after,
      sql`select n_live_tup as live, n_dead_tup as dead, n_ins_since_vacuum as inserted from pg_stat_user_tables where relname = ${CHUNKS}`,
    );
    expect(vacuumDue({ live: Number(counted!.live), dead: Number(counted!.dead), inserted: Number(counted!.inserted) })).toBe(false);
    await expect.poll(() => after.logs.find((l) => /housekeeping vacuumed \d+ tables/.test(l)), { timeout: 30_000 }).toMatch(new RegExp(CHUNKS));

    const owner = after.client();
    expect((await owner.signIn('keeper@example.com', 'secret-pass')).status).toBe(200);
    await addLibrary(owner, personalityId!, after);
    expect(await chunksBytes(after)).toBeLessThan(withLibrary! * 1.2);
  });
});
