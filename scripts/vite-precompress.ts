// A Vite build step: next to every compressible file of the web build, a .br (brotli, quality 11)
// and a .gz (gzip, level 9) copy, made once at build time so the server never compresses on a
// request. The server's static handler (serveStatic with `precompressed`) picks the one the
// browser accepts (Accept-Encoding) and says so with Content-Encoding and Vary.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|wasm|map|webmanifest)$/;
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 1024;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

export function compressBuild(dir: string): { files: number; bytes: number; gzip: number; brotli: number } {
  const totals = { files: 0, bytes: 0, gzip: 0, brotli: 0 };
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const data = fs.readFileSync(file);
    if (data.length < MIN_BYTES) continue;
    const gz = zlib.gzipSync(data, { level: 9 });
    const br = zlib.brotliCompressSync(data, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
    });
    fs.writeFileSync(`${file}.gz`, gz);
    fs.writeFileSync(`${file}.br`, br);
    totals.files++;
    totals.bytes += data.length;
    totals.gzip += gz.length;
    totals.brotli += br.length;
  }
  return totals;
}

export function precompress(): Plugin {
  let outDir = 'dist/web';
  return {
    name: 'kindred-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const t = compressBuild(outDir);
      const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
      this.info?.(`precompressed ${t.files} files: ${kib(t.bytes)} -> gzip ${kib(t.gzip)}, brotli ${kib(t.brotli)}`);
    },
  };
}
