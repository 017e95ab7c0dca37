/** Where the app serves the open-mic voice files: VAD model, worklets, WebAssembly (scripts/vite-vad-assets.ts). */
declare const __VOICE_ASSET_BASE__: string;
