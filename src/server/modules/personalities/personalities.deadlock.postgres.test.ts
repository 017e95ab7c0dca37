// On PostgreSQL, deleting a personality cascades to its documents while a document job may hold a
// document row and wait for the personality's key: a deadlock, and PostgreSQL aborts one side.
// When the person's delete is the one aborted, it is run again and succeeds (no 500). The job's
// side is played here by a session of the test's own, so the cycle is built on purpose: it locks
// the document row, the delete waits on it, then it asks for the personality's key. Its
// deadlock_timeout is long, so the delete's own check (1 s) finds the cycle and is the victim.
// Runs in the PostgreSQL pass (TEST_DATABASE_URL); PGlite has one connection and cannot deadlock.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { createPersonality, uploadOne, waitForDocument } from '../documents/documents.test-support';

const adminUrl = process.env.TEST_DATABASE_URL;
let server: TestServer;

beforeAll(async () => {
  if (adminUrl) server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** How many sessions wait on a lock inside the app's delete of a personality. */
async function deletesWaiting(session: pg.Client): Promise<number> {
  const { rows } = await session.query(
    `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and query ilike 'delete from "personalities"%'`,
  );
  return rows[0].n;
}

describe.skipIf(!adminUrl)('deleting a personality that deadlocks with a document write', () => {
  it('is run again when PostgreSQL picks it as the victim, and the personality is gone', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Contended');
    const docId = await uploadOne(owner, id, { name: 'notes.txt', data: 'The keeper logged every storm.', type: 'text/plain' });
    await waitForDocument(owner, id, docId);

    const job = new pg.Client({ connectionString: server.config.databaseUrl });
    await job.connect();
    const observer = new pg.Client({ connectionString: server.config.databaseUrl });
    await observer.connect();
    try {
      await job.query('begin');
      await job.query(`set local deadlock_timeout = '30s'`);
      await job.query('select 1 from personality_documents where id = $1 for update', [docId]);

      const deleting = owner.delete(`/api/personalities/${id}`);
      // The delete waits on the locked document (a transactionid lock: it has no database in pg_locks).
      await expect.poll(() => deletesWaiting(observer), { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
      // Closes the cycle: the delete holds the personality and waits for the document row.
      const started = Date.now();
      await job.query('select 1 from personalities where id = $1 for key share', [id]);
      // It got the key only because the delete was aborted (its own check fires after ~1 s).
      expect(Date.now() - started).toBeGreaterThan(500);
      await job.query('commit');

      const res = await deleting;
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      expect((await owner.get(`/api/personalities/${id}`)).status).toBe(404);
      const left = await observer.query('select count(*)::int as n from personality_documents where id = $1', [docId]);
      expect(left.rows[0].n).toBe(0);
    } finally {
      await job.end().catch(() => {});
      await observer.end();
    }
  }, 30_000);
});
