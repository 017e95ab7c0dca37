// During a rolling upgrade (docs/deployment.md, Upgrades) processes of the previous release run on
// the schema the new one migrated, so a migration may only add: tables, indexes, nullable columns
// or columns with a default. This reads every migration and refuses what would break the previous
// release's writes or reads: a NOT NULL column without a default (its inserts fail), dropping or
// renaming a column or table (its statements fail). Past migrations that did so are listed with
// the migration that made them safe.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.join(import.meta.dirname, 'migrations');
const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };

/** Past migrations that broke the rule, and why they stand. */
const REPAIRED: Record<string, string> = {
  '0004_document_text_pieces': 'moved document text into pieces before several processes were supported: an upgrade across it stops every process first',
  '0015_flag_history': '0018_flag_personality_name_default gives content_flags.personality_name a default',
};

function problems(sql: string): string[] {
  const found: string[] = [];
  const statements = sql.split('--> statement-breakpoint').map((s) => s.replace(/--.*$/gm, '').trim()).filter(Boolean);
  const defaulted = new Set<string>();
  for (const s of statements) {
    const m = /ALTER COLUMN\s+"([^"]+)"\s+SET DEFAULT/i.exec(s);
    if (m) defaulted.add(m[1]!);
  }
  for (const s of statements) {
    if (/^CREATE TABLE/i.test(s)) continue; // a new table: the previous release never writes it
    const added = /ADD COLUMN\s+"([^"]+)"([^;]*)/i.exec(s);
    if (added && /NOT NULL/i.test(added[2]!) && !/DEFAULT/i.test(added[2]!)) found.push(`adds NOT NULL column "${added[1]}" without a default`);
    const notNull = /ALTER COLUMN\s+"([^"]+)"\s+SET NOT NULL/i.exec(s);
    if (notNull && !defaulted.has(notNull[1]!)) found.push(`sets "${notNull[1]}" NOT NULL without giving it a default`);
    if (/DROP COLUMN/i.test(s)) found.push('drops a column');
    if (/DROP TABLE/i.test(s)) found.push('drops a table');
    if (/\bRENAME\b/i.test(s)) found.push('renames');
  }
  return found;
}

describe('migrations keep the previous release working', () => {
  it('only add what the previous release can live with', () => {
    const broken: Record<string, string[]> = {};
    for (const { tag } of journal.entries) {
      const found = problems(fs.readFileSync(path.join(dir, `${tag}.sql`), 'utf8'));
      if (found.length > 0 && !REPAIRED[tag]) broken[tag] = found;
    }
    expect(broken).toEqual({});
  });

  it('recognises what breaks the previous release', () => {
    expect(problems('ALTER TABLE "t" ADD COLUMN "c" text NOT NULL;')).toHaveLength(1);
    expect(problems('ALTER TABLE "t" ADD COLUMN "c" text DEFAULT \'\' NOT NULL;')).toEqual([]);
    expect(problems('ALTER TABLE "t" ALTER COLUMN "c" SET NOT NULL;')).toHaveLength(1);
    expect(problems('ALTER TABLE "t" ALTER COLUMN "c" SET DEFAULT 0;--> statement-breakpoint\nALTER TABLE "t" ALTER COLUMN "c" SET NOT NULL;')).toEqual([]);
    expect(problems('ALTER TABLE "t" DROP COLUMN "c";')).toHaveLength(1);
    expect(problems('ALTER TABLE "t" RENAME COLUMN "a" TO "b";')).toHaveLength(1);
    expect(problems('CREATE TABLE "n" ("id" uuid NOT NULL);')).toEqual([]);
    expect(problems(fs.readFileSync(path.join(dir, '0015_flag_history.sql'), 'utf8'))).toEqual(['sets "personality_name" NOT NULL without giving it a default']);
  });
});
