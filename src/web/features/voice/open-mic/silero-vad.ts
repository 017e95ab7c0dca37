// Turn-taking for the hands-free loop: Silero VAD (@ricky0123/vad-web): its AudioWorklet cuts the
// microphone into frames and posts them straight to a worker of its own (vad.worker.ts) where the
// model runs, never through the page's main thread; model, worklet and WebAssembly are served by
// the app (scripts/vite-vad-assets.ts). The person's turn ends after `endOfTurnMs` without speech
// (configurable on the server: VOICE_END_OF_TURN_MS), not after a fixed recording length, so a
// thoughtful pause does not cut them off.
import { messages } from '../../../../shared/messages';
import { VAD_FRAME_SAMPLES, vadListenOptions, type PageToVad, type VadToPage } from './vad-protocol';

export interface VadCallbacks {
  /** Speech began (barge-in stops the reply here). */
  onSpeechStart(): void;
  /**
   * The turn is over: 16 kHz mono samples of what was said (with a little audio from before).
   * `decidedAt`: when the VAD decided, in this page's performance.now() time (the worker's message
   * may wait for the page to be free; the response time counts from the decision).
   */
  onSpeechEnd(audio: Float32Array, decidedAt?: number): void;
  /** A noise too short to be speech (the reply, if stopped, does not come back). */
  onMisfire(): void;
  /** Voice detection stopped working mid-call (the model failed on a frame): no more turns will come. */
  onFailure(): void;
}

export interface VadHandle {
  /**
   * Ends the turn now instead of at a pause (the speech reached the longest turn the server
   * takes): onSpeechEnd follows with the audio so far, and speech that goes on is a new onSpeechStart.
   */
  endTurn(): void;
  destroy(): Promise<void>;
}

export type VadFactory = (
  callbacks: VadCallbacks,
  options: { endOfTurnMs: number; stream: MediaStream; audioContext?: AudioContext },
) => Promise<VadHandle>;

export const VOICE_ASSET_BASE = typeof __VOICE_ASSET_BASE__ === 'string' ? __VOICE_ASSET_BASE__ : '/assets/voice/';
const ASSET_BASE = VOICE_ASSET_BASE;
/** @ricky0123/vad-web's AudioWorklet: resamples the microphone to 16 kHz and posts VAD_FRAME_SAMPLES-sample frames. */
const WORKLET = 'vad.worklet.bundle.min.js';
const WORKLET_PROCESSOR = 'vad-helper-worklet';

/** A worker with the model loaded (or loading), ready for one call. */
interface LoadedWorker {
  worker: Worker;
  loaded: Promise<void>;
}

function startWorker(): LoadedWorker {
  const worker = new Worker(new URL('./vad.worker.ts', import.meta.url), { type: 'module', name: 'vad' });
  const loaded = new Promise<void>((resolve, reject) => {
    // The person is told detection could not start; the cause goes to the console.
    const failed = (cause: string) => {
      console.error(`voice detection could not start: ${cause}`);
      reject(new Error(messages.openMic.vadFailed));
    };
    const onMessage = (ev: MessageEvent<VadToPage>) => {
      if (ev.data.type === 'loaded') resolve();
      else if (ev.data.type === 'failed') failed(ev.data.message);
      else return;
      worker.removeEventListener('message', onMessage);
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', (ev) => failed(ev.message || 'the worker did not start'), { once: true });
  });
  loaded.catch(() => worker.terminate());
  post(worker, { type: 'load', assetBase: ASSET_BASE });
  return { worker, loaded };
}

const post = (worker: Worker, message: PageToVad, transfer: Transferable[] = []) => worker.postMessage(message, transfer);

/** Loaded ahead of Start (preloadVad) and taken by the next call; each call has a worker of its own. */
let spare: LoadedWorker | undefined;

function takeWorker(): LoadedWorker {
  const taken = spare ?? startWorker();
  spare = undefined;
  return taken;
}

export const createSileroVad: VadFactory = async (callbacks, { endOfTurnMs, stream, audioContext }) => {
  const { worker, loaded } = takeWorker();
  // Created and resumed in the click that started the call (browsers only let audio start in a gesture).
  const context = audioContext ?? new AudioContext();
  let node: AudioWorkletNode | undefined;
  let source: MediaStreamAudioSourceNode | undefined;
  // Terminating the worker frees its model and WebAssembly memory: nothing to ask it first.
  const release = () => {
    source?.disconnect();
    // The worklet's port is the worker's: terminating the worker closes it, and closing the call's
    // AudioContext (the loop's teardown) ends the worklet itself.
    node?.disconnect();
    worker.terminate();
    if (!audioContext) void context.close().catch(() => {});
  };
  try {
    await Promise.all([loaded, context.audioWorklet.addModule(`${ASSET_BASE}${WORKLET}`)]);
    worker.onmessage = (ev: MessageEvent<VadToPage>) => {
      const message = ev.data;
      if (message.type === 'speech-start') callbacks.onSpeechStart();
      else if (message.type === 'speech-end') callbacks.onSpeechEnd(new Float32Array(message.audio), message.decidedAt - performance.timeOrigin);
      else if (message.type === 'misfire') callbacks.onMisfire();
      else if (message.type === 'failed') {
        console.error(`voice detection stopped: ${message.message}`);
        callbacks.onFailure();
      }
    };
    post(worker, { type: 'listen', options: vadListenOptions(endOfTurnMs) });
    node = new AudioWorkletNode(context, WORKLET_PROCESSOR, { processorOptions: { frameSamples: VAD_FRAME_SAMPLES } });
    // The worklet's port goes to the worker: frames flow from the audio thread to the model without
    // waiting for the page, which may be busy drawing the reply for tens of milliseconds (a frame
    // queued behind it is a late end of turn and a late barge-in).
    post(worker, { type: 'frames', port: node.port }, [node.port]);
    // The stream is ours (opened with echo cancellation, its errors mapped to the spec's messages).
    source = new MediaStreamAudioSourceNode(context, { mediaStream: stream });
    source.connect(node);
  } catch (err) {
    release();
    throw err;
  }
  return { endTurn: () => post(worker, { type: 'end-turn' }), destroy: async () => release() };
};

/**
 * Gets the VAD ready ahead of Start, so connecting does not wait for it: a worker with
 * onnxruntime-web and the model loaded (the files are cached as immutable), kept for the next call.
 */
export function preloadVad(): Promise<void> {
  spare ??= startWorker();
  const pending = spare;
  return pending.loaded.catch((err) => {
    if (spare === pending) spare = undefined;
    throw err;
  });
}
