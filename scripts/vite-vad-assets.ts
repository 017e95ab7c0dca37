// Open mic's browser-side voice files, served by the app itself (never from a CDN, and allowed by
// the CSP's script-src 'self' where a blob: worklet would not be): the Silero VAD model, its
// AudioWorklet and onnxruntime-web's WebAssembly, and the ElevenLabs client's audio worklets.
// This build step copies them from node_modules into the web build under a folder named by their
// versions (so they can be cached as immutable), serves the same files in `vite` dev, and tells
// the code where they are (__VOICE_ASSET_BASE__).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** A package's folder (its package.json is not always exported, so walk up from its entry). */
function packageDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
    dir = path.dirname(dir);
  }
  throw new Error(`Cannot find the folder of ${name}`);
}

const versionOf = (name: string) => (JSON.parse(fs.readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')) as { version: string }).version;

export function vadAssetFiles(): { name: string; file: string }[] {
  const vad = path.join(packageDir('@ricky0123/vad-web'), 'dist');
  const ort = path.join(packageDir('onnxruntime-web'), 'dist');
  const eleven = path.join(packageDir('@elevenlabs/client'), 'worklets');
  return [
    { name: 'rawAudioProcessor.js', file: path.join(eleven, 'rawAudioProcessor.js') },
    { name: 'audioConcatProcessor.js', file: path.join(eleven, 'audioConcatProcessor.js') },
    { name: 'vad.worklet.bundle.min.js', file: path.join(vad, 'vad.worklet.bundle.min.js') },
    { name: 'silero_vad_v5.onnx', file: path.join(vad, 'silero_vad_v5.onnx') },
    { name: 'ort-wasm-simd-threaded.wasm', file: path.join(ort, 'ort-wasm-simd-threaded.wasm') },
    { name: 'ort-wasm-simd-threaded.mjs', file: path.join(ort, 'ort-wasm-simd-threaded.mjs') },
  ];
}

export function vadAssetBase(): string {
  return `/assets/voice-vad${versionOf('@ricky0123/vad-web')}-ort${versionOf('onnxruntime-web')}-el${versionOf('@elevenlabs/client')}/`;
}

export function vadAssets(): Plugin {
  const base = vadAssetBase();
  const files = vadAssetFiles();
  return {
    name: 'kindred-vad-assets',
    config: () => ({ define: { __VOICE_ASSET_BASE__: JSON.stringify(base) } }),
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = req.url?.split('?')[0] ?? '';
        const found = url.startsWith(base) ? files.find((f) => f.name === url.slice(base.length)) : undefined;
        if (!found) return next();
        res.setHeader('content-type', found.name.endsWith('.wasm') ? 'application/wasm' : found.name.endsWith('js') ? 'text/javascript' : 'application/octet-stream');
        fs.createReadStream(found.file).pipe(res);
      });
    },
    generateBundle() {
      for (const f of files) this.emitFile({ type: 'asset', fileName: `${base.slice(1)}${f.name}`, source: fs.readFileSync(f.file) });
    },
  };
}
