// Turn-taking for the hands-free loop: Silero VAD (@ricky0123/vad-web) in an AudioWorklet, with
// its model, worklet and WebAssembly served by the app (scripts/vite-vad-assets.ts). The person's
// turn ends after `endOfTurnMs` without speech (configurable on the server: VOICE_END_OF_TURN_MS),
// not after a fixed recording length, so a thoughtful pause does not cut them off.
export interface VadCallbacks {
  /** Speech began (barge-in stops the reply here). */
  onSpeechStart(): void;
  /** The turn is over: 16 kHz mono samples of what was said (with a little audio from before). */
  onSpeechEnd(audio: Float32Array): void;
  /** A noise too short to be speech (the reply, if stopped, does not come back). */
  onMisfire(): void;
}

export interface VadHandle {
  destroy(): Promise<void>;
}

export type VadFactory = (
  callbacks: VadCallbacks,
  options: { endOfTurnMs: number; stream: MediaStream; audioContext?: AudioContext },
) => Promise<VadHandle>;

export const VOICE_ASSET_BASE = typeof __VOICE_ASSET_BASE__ === 'string' ? __VOICE_ASSET_BASE__ : '/assets/voice/';
const ASSET_BASE = VOICE_ASSET_BASE;
const MODEL = 'silero_vad_v5.onnx';

export const createSileroVad: VadFactory = async (callbacks, { endOfTurnMs, stream, audioContext }) => {
  const { MicVAD } = await import('@ricky0123/vad-web');
  const vad = await MicVAD.new({
    model: 'v5',
    // Created and resumed in the click that started the call (browsers only let audio start in a gesture).
    ...(audioContext ? { audioContext } : {}),
    baseAssetPath: ASSET_BASE,
    onnxWASMBasePath: ASSET_BASE,
    // The stream is ours (opened with echo cancellation, its errors mapped to the spec's messages).
    getStream: async () => stream,
    pauseStream: async () => {},
    resumeStream: async () => stream,
    positiveSpeechThreshold: 0.5,
    negativeSpeechThreshold: 0.35,
    redemptionMs: endOfTurnMs,
    preSpeechPadMs: 300,
    minSpeechMs: 250,
    onSpeechStart: () => callbacks.onSpeechStart(),
    onSpeechEnd: (audio) => callbacks.onSpeechEnd(audio),
    onVADMisfire: () => callbacks.onMisfire(),
    startOnLoad: true,
  });
  return { destroy: () => vad.destroy() };
};

let preloading: Promise<void> | undefined;

/**
 * Fetches the VAD's code, model and WebAssembly ahead of Start (the files are cached as immutable),
 * so connecting does not wait for the network. (The runtime itself is compiled by the VAD on Start:
 * it loads onnxruntime-web through its own CommonJS entry, so warming another copy would not help.)
 */
export function preloadVad(): Promise<void> {
  preloading ??= Promise.all([
    import('@ricky0123/vad-web'),
    fetch(`${ASSET_BASE}${MODEL}`).then((r) => r.arrayBuffer()),
    fetch(`${ASSET_BASE}ort-wasm-simd-threaded.wasm`).then((r) => r.arrayBuffer()),
  ]).then(
    () => undefined,
    (err) => {
      preloading = undefined;
      throw err;
    },
  );
  return preloading;
}
