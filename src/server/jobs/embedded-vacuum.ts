// The embedded database's stand-in for autovacuum. PGlite runs PostgreSQL without it, so the space
// of deleted rows (a document with its chunks and vectors, a conversation, a replaced document's
// old chunks) was never reused: every later insert grew the data folder instead. Measured: adding
// and deleting 3,000 chunks four times took DATA_DIR from 104 to 203 MB; vacuumed after each
// deletion, it stayed at 105 MB. Housekeeping (housekeeping.ts) vacuums the tables autovacuum
// would, by its default rules, one table per statement so other statements run between them.
// Each VACUUM holds the one database thread while it runs: about 2 s after deleting 3,000 chunks
// with their vectors. A table's first VACUUM reads all of it (3.4 s for a 10,000-chunk library
// with vectors), later ones only the pages changed since (0.3 s for that library with nothing
// to do): so, like autovacuum, tables that only grow are vacuumed too, a part at a time, and a
// pass after a restart stays short. PostgreSQL servers run their own autovacuum; not used there.
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

/** Autovacuum's defaults (autovacuum_vacuum_threshold, autovacuum_vacuum_scale_factor). */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE_FACTOR = 0.2;
/** Autovacuum's defaults for rows added (autovacuum_vacuum_insert_threshold and _scale_factor). */
const INSERT_THRESHOLD = 1000;
const INSERT_SCALE_FACTOR = 0.2;

interface TableActivity {
  name: string;
  live: number;
  dead: number;
  /** Rows added since the table was last vacuumed. */
  inserted: number;
}

/** Whether autovacuum would vacuum a table with these rows. */
export function vacuumDue({ live, dead, inserted }: Omit<TableActivity, 'name'>): boolean {
  return dead > VACUUM_THRESHOLD + VACUUM_SCALE_FACTOR * live || inserted > INSERT_THRESHOLD + INSERT_SCALE_FACTOR * live;
}

/**
 * Vacuums the tables that are due, or every table with `everything`: PGlite keeps no statistics
 * across a restart, so rows deleted before it are counted nowhere and only a whole pass finds them
 * (the first pass after each start). Returns the tables vacuumed.
 */
export async function vacuumEmbedded(db: Database, opts: { everything: boolean }): Promise<string[]> {
  const result = (await db.execute(
    sql`select relname as name, n_live_tup as live, n_dead_tup as dead, n_ins_since_vacuum as inserted
        from pg_stat_user_tables where schemaname = 'public' order by relname`,
  )) as unknown as { rows: Record<keyof TableActivity, string | number>[] };
  const tables = result.rows.map((r) => ({ name: String(r.name), live: Number(r.live), dead: Number(r.dead), inserted: Number(r.inserted) }));
  const vacuumed: string[] = [];
  for (const table of tables) {
    if (!opts.everything && !vacuumDue(table)) continue;
    // The name comes from the catalog; quoted as an identifier all the same.
    await db.execute(sql`vacuum ${sql.identifier(table.name)}`);
    vacuumed.push(table.name);
  }
  return vacuumed;
}
