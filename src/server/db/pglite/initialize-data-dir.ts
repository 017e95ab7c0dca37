// A new PGlite data folder is created by running initdb, which PGlite does in a second
// PostgreSQL instance beside the first: about 850 MB at its peak, and memory a process does not
// give back afterwards (a server started on a new folder sat at ~520 MB idle, against ~350 MB on
// a folder that already existed). So a new folder is initialized in a short-lived child process,
// and the server only ever opens a folder that exists.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** PostgreSQL writes this file last when a data folder is complete. */
export function isInitialized(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'PG_VERSION'));
}

const pgliteEntry = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;

export async function initializeDataDir(dataDir: string): Promise<void> {
  // Plain JavaScript for the child: it needs no TypeScript loader, only PGlite.
  const script = `
    const { PGlite } = await import(${JSON.stringify(pgliteEntry)});
    const db = await PGlite.create(process.argv[1]);
    await db.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !isInitialized(dataDir)) {
    throw new Error(`could not create the database in ${dataDir} (exit code ${code}): ${stderr.trim() || 'no output'}`);
  }
}
