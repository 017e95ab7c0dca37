// Blobs as files under DATA_DIR/blobs. Keys are validated again here and the resolved path must
// stay inside the root, so even a bad key from elsewhere cannot reach another file.
import fs from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, assertValidPrefix, BlobNotFoundError, type BlobStorage } from './storage';

export function createLocalStorage(root: string): BlobStorage {
  const base = path.resolve(root);

  function resolve(key: string): string {
    assertValidKey(key);
    const full = path.resolve(base, ...key.split('/'));
    if (!full.startsWith(base + path.sep)) throw new Error('Invalid storage key');
    return full;
  }

  const notFound = (err: unknown, key: string) =>
    (err as NodeJS.ErrnoException).code === 'ENOENT' ? new BlobNotFoundError(key) : err;

  return {
    async put(key, data) {
      const file = resolve(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename: a crash or a failed stream never leaves a half-written blob under the real key.
      const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
      try {
        if (data instanceof Uint8Array) await fs.writeFile(tmp, data, { flag: 'wx' });
        else await pipeline(data, createWriteStream(tmp, { flags: 'wx' }));
        await fs.rename(tmp, file);
      } catch (err) {
        await fs.rm(tmp, { force: true });
        throw err;
      }
    },
    async get(key) {
      try {
        return await fs.readFile(resolve(key));
      } catch (err) {
        throw notFound(err, key);
      }
    },
    async openRead(key) {
      const file = resolve(key);
      try {
        const handle = await fs.open(file, 'r');
        const { size } = await handle.stat();
        // The stream owns the open handle (closed at its end), so a delete meanwhile is harmless.
        return { stream: handle.createReadStream(), size };
      } catch (err) {
        throw notFound(err, key);
      }
    },
    async delete(key) {
      const file = resolve(key);
      await fs.rm(file, { force: true });
      // Drop folders left empty (personality, then user), never the root itself.
      for (let dir = path.dirname(file); dir.startsWith(base + path.sep); dir = path.dirname(dir)) {
        try {
          await fs.rmdir(dir);
        } catch {
          break; // not empty (or already gone)
        }
      }
    },
    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      const dir = resolve(prefix.slice(0, -1));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The temporary name `put` writes under before renaming (name.<12 hex>.tmp). */
const UNFINISHED_WRITE = /\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes files a write left half-done when the process was killed mid-upload (their temporary
 * names; no document points at them). Run at start-up, when this process alone uses the folder
 * (the DATA_DIR lock); returns how many were removed.
 */
export async function removeUnfinishedWrites(root: string): Promise<number> {
  let entries: string[];
  try {
    entries = (await fs.readdir(root, { recursive: true })) as string[];
  } catch {
    return 0; // no blobs yet
  }
  let removed = 0;
  for (const entry of entries) {
    if (!UNFINISHED_WRITE.test(entry)) continue;
    await fs.rm(path.join(root, entry), { force: true });
    removed++;
  }
  return removed;
}
