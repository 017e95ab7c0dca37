import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './scripts/vite-precompress.ts';
import { vadAssets } from './scripts/vite-vad-assets.ts';

// The SPA: index.html at the repo root loads src/web/main.tsx. The build lands in dist/web, which
// the Node server serves on the same origin as the API. In development `vite` proxies /api to the
// server started by `npm run dev` (tsx watch on port 3000), so cookies stay first-party.
export default defineConfig({
  root: '.',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), vadAssets(), precompress()],
  resolve: {
    // onnxruntime-web without its WebAssembly bundled as an asset of its own: the VAD worker loads
    // it from the voice assets folder (ort.env.wasm.wasmPaths), so the build carries one 14 MB copy.
    conditions: [...defaultClientConditions, 'onnxruntime-web-use-extern-wasm'],
  },
  // The VAD worker is a module worker (onnxruntime-web imports its WebAssembly glue at run time).
  worker: { format: 'es' },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Scripts stay files, never data: URLs: the CSP allows scripts from 'self' only, and the
    // recorder's AudioWorklet module is loaded by URL.
    assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined),
    rolldownOptions: {
      output: {
        // React changes less often than our code: its own chunk stays cached across releases. No
        // catch-all vendor group: it would pull the libraries of lazily loaded screens (Markdown,
        // drag-and-drop, admin) into the first page's JavaScript.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 2 }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', ws: true },
    },
  },
});
