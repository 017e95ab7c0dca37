// Rolling upgrades (docs/deployment.md): while processes of two releases serve one site, a page
// one of them sent asks any of them for its scripts, under content-hashed names only its own build
// has, and a process that lacks one would break the page. So, when the processes share object
// storage (S3_*), each copies its built assets there at start-up (under web-assets/, once per
// name: a hashed name never changes content), and answers an asset it does not have from there.
// Without shared storage (one process) a missing asset is simply 404.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BlobStorage } from '../storage/storage';
import type { Logger } from '../lib/logger';

const PREFIX = 'web-assets/';
/** Vite's asset names: name-hash.ext; nothing else is ever looked up. */
const ASSET_NAME = /^[A-Za-z0-9._-]{1,200}$/;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.onnx': 'application/octet-stream',
  '.json': 'application/json',
};

export interface SharedAssets {
  /** Copies this build's assets to the shared storage (those not there yet); never throws. */
  publish(): Promise<number>;
  /** Another build's asset from the shared storage, or undefined. */
  find(name: string): Promise<Response | undefined>;
}

export function createSharedAssets(storage: BlobStorage, assetsDir: string, logger: Logger): SharedAssets {
  return {
    async publish() {
      let copied = 0;
      try {
        const names = fs.readdirSync(assetsDir).filter((n) => ASSET_NAME.test(n) && !/\.(br|gz)$/.test(n));
        for (const name of names) {
          if (await exists(storage, PREFIX + name)) continue;
          await storage.put(PREFIX + name, fs.createReadStream(path.join(assetsDir, name)));
          copied++;
        }
      } catch (err) {
        logger.warn('could not copy the built assets to shared storage (a rolling upgrade may serve broken pages)', err instanceof Error ? err.message : err);
      }
      return copied;
    },

    async find(name) {
      if (!ASSET_NAME.test(name) || /\.(br|gz)$/.test(name)) return undefined;
      try {
        const { stream, size } = await storage.openRead(PREFIX + name);
        return new Response(Readable.toWeb(stream) as ReadableStream, {
          headers: {
            'content-type': CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
            'content-length': String(size),
            'cache-control': 'public, max-age=31536000, immutable',
          },
        });
      } catch {
        return undefined;
      }
    },
  };
}

async function exists(storage: BlobStorage, key: string): Promise<boolean> {
  try {
    const { stream } = await storage.openRead(key);
    stream.destroy();
    return true;
  } catch {
    return false;
  }
}
