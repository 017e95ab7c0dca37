// A migrated empty database, dumped once and loaded by every in-memory test server.
//
// A new in-memory PGlite runs initdb, about 3 s of CPU, and the server suite starts a couple of
// hundred of them: that was a third of a CI run. Loading a dumped data folder takes about 1 s.
// The image is the state migrations leave (the server still runs them on start: they find
// everything applied), kept in the temporary folder under a name that changes with anything that
// shapes it (the migrations, the embeddings table's code, PGlite's and pgvector's versions), so
// a stale one is never used. Migrations themselves are still tested on new databases
// (migrations-compat, migration-indexes, the PostgreSQL suite).
//
// Tests that stop and start a server on one data folder (PGlite on disk) start from the same
// state: `seedPgliteDataDir` copies a folder made once from the image. A new folder otherwise runs
// initdb in a child process, about 8 s of a test's time each; creating one for real stays tested
// where a test starts the server as a program (start.test.ts) and in the browser flows.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { migratePglite, migrationsFolder } from '../db/client';

const require = createRequire(import.meta.url);

/** The installed version (the packages do not export their package.json): found above the entry. */
function packageVersion(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name: found, version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (found === name) return version ?? '';
    }
    dir = path.dirname(dir);
  }
  throw new Error(`no package.json found for ${name}`);
}

function imageKey(): string {
  const hash = crypto.createHash('sha256');
  for (const pkg of ['@electric-sql/pglite', '@electric-sql/pglite-pgvector']) hash.update(`${pkg}@${packageVersion(pkg)}\n`);
  const files = [
    ...fs.readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).map((f) => path.join(migrationsFolder, f)),
    fileURLToPath(new URL('../db/embeddings-schema.ts', import.meta.url)),
    fileURLToPath(import.meta.url),
  ].filter((f) => fs.statSync(f).isFile());
  for (const file of files.sort()) hash.update(`${path.relative(migrationsFolder, file)}\n`).update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

let made: Promise<string> | undefined;
let madeFolder: Promise<string> | undefined;

/** The image's path, made if no test process has made it yet. */
export function migratedPgliteImage(): Promise<string> {
  made ??= (async () => {
    const file = path.join(os.tmpdir(), `kindred-pglite-image-${imageKey()}.tar`);
    if (fs.existsSync(file)) return file;
    const { PGlite } = await import('@electric-sql/pglite');
    const { vector } = await import('@electric-sql/pglite-pgvector');
    const { drizzle } = await import('drizzle-orm/pglite');
    const schema = await import('../db/schema/index');
    const pglite = await PGlite.create({ extensions: { vector } });
    try {
      await pglite.exec('CREATE EXTENSION IF NOT EXISTS vector');
      const db = drizzle({ client: pglite, schema });
      await migratePglite(db as never);
      const dump = await pglite.dumpDataDir('none');
      // Written whole under another name, then renamed: a test process starting meanwhile sees
      // no image or a complete one.
      const partial = `${file}.${process.pid}.partial`;
      fs.writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
      fs.renameSync(partial, file);
    } finally {
      await pglite.close();
    }
    return file;
  })().catch((err: unknown) => {
    made = undefined;
    throw err;
  });
  return made;
}

/**
 * Makes `dataDir` (a PGlite data folder, empty or holding only a lock file) a migrated database,
 * as the in-memory image is, so a persistent test server starts without initdb.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const folder = await migratedPgliteFolder();
  fs.cpSync(folder, dataDir, { recursive: true });
}

/** A data folder loaded from the image once per image (same key), shared by test processes. */
function migratedPgliteFolder(): Promise<string> {
  madeFolder ??= (async () => {
    const image = await migratedPgliteImage();
    const folder = image.replace(/\.tar$/, '.folder');
    if (fs.existsSync(path.join(folder, 'PG_VERSION'))) return folder;
    const partial = `${folder}.${process.pid}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const { vector } = await import('@electric-sql/pglite-pgvector');
    const pglite = await PGlite.create(partial, { extensions: { vector }, loadDataDir: new Blob([fs.readFileSync(image)]) });
    await pglite.close();
    try {
      // Whole or not at all, as the image: a folder another test process renamed first wins.
      fs.renameSync(partial, folder);
    } catch (err) {
      fs.rmSync(partial, { recursive: true, force: true });
      if (!fs.existsSync(path.join(folder, 'PG_VERSION'))) throw err;
    }
    return folder;
  })().catch((err: unknown) => {
    madeFolder = undefined;
    throw err;
  });
  return madeFolder;
}
