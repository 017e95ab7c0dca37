/// <reference lib="webworker" />
// Silero VAD off the page's main thread. The model runs on every 32 ms frame of the call, and on
// the main thread its WebAssembly inference took 6-16 ms a frame there, beside React drawing the
// streamed reply: the page's end-of-turn and barge-in detection waited behind layout, and layout
// behind inference. Here, the frames queue for this worker only. Same model (v5), same frame
// processor and settings as @ricky0123/vad-web's MicVAD, which the page used to run in place.
import * as ort from 'onnxruntime-web/wasm';
// Deep imports: the package's index would bring its own copy of onnxruntime-web (CommonJS) too.
import { FrameProcessor, type FrameProcessorEvent } from '@ricky0123/vad-web/dist/frame-processor';
import { Message } from '@ricky0123/vad-web/dist/messages';
import { Silero } from '@ricky0123/vad-web/dist/models';
import { VAD_FRAME_SAMPLES, VAD_SAMPLE_RATE, type PageToVad, type VadListenOptions, type VadToPage } from './vad-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const MODEL = 'silero_vad_v5.onnx';
const MS_PER_FRAME = (VAD_FRAME_SAMPLES / VAD_SAMPLE_RATE) * 1000;

let model: Awaited<ReturnType<typeof Silero.new>> | undefined;
let processor: FrameProcessor | undefined;
let failed = false;
// One message at a time, in order: the frame processor's state (and the model's) belongs to the
// frame before.
let queue: Promise<void> = Promise.resolve();

const post = (message: VadToPage, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

function fail(err: unknown) {
  if (failed) return;
  failed = true;
  post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
}

async function load(assetBase: string) {
  ort.env.logLevel = 'error';
  ort.env.wasm.wasmPaths = assetBase;
  // No threads: the page is not cross-origin isolated, and one frame is a few milliseconds.
  ort.env.wasm.numThreads = 1;
  model = await Silero.new(ort, () => fetch(`${assetBase}${MODEL}`).then((r) => {
    if (!r.ok) throw new Error(`the VAD model could not be loaded (HTTP ${r.status})`);
    return r.arrayBuffer();
  }));
  post({ type: 'loaded' });
}

function listen(options: VadListenOptions) {
  if (!model) throw new Error('the VAD model is not loaded');
  processor = new FrameProcessor(model.process, model.reset_state, { ...options, submitUserSpeechOnPause: false }, MS_PER_FRAME);
  processor.resume();
}

/** The frame processor's events the page hears of. */
function report(event: FrameProcessorEvent) {
  switch (event.msg) {
    case Message.SpeechStart:
      post({ type: 'speech-start', decidedAt: performance.timeOrigin + performance.now() });
      break;
    case Message.VADMisfire:
      post({ type: 'misfire' });
      break;
    case Message.SpeechEnd: {
      const { audio } = event;
      post({ type: 'speech-end', audio: audio.buffer as ArrayBuffer, decidedAt: performance.timeOrigin + performance.now() }, [audio.buffer]);
      break;
    }
  }
}

async function processFrame(frame: Float32Array) {
  await processor?.process(frame, report);
}

/**
 * The turn ends here, without waiting for a pause: the speech so far is the turn (the processor
 * starts afresh, so speech that goes on is heard as the start of the next one). Queued with the
 * frames, so it cuts between two of them and none is lost or counted twice.
 */
function endTurn() {
  processor?.endSegment(report);
}

function enqueue(step: () => Promise<void> | void) {
  queue = queue.then(step).catch(fail);
}

/** @ricky0123/vad-web's worklet message for a frame (its Message.AudioFrame). */
interface WorkletMessage {
  message?: string;
  data?: unknown;
}

function receiveFrames(port: MessagePort) {
  port.onmessage = (ev: MessageEvent<WorkletMessage>) => {
    const { message, data } = ev.data ?? {};
    if (failed || message !== Message.AudioFrame || !(data instanceof ArrayBuffer)) return;
    enqueue(() => processFrame(new Float32Array(data)));
  };
}

scope.onmessage = (ev: MessageEvent<PageToVad>) => {
  const message = ev.data;
  if (failed) return;
  const step = (): Promise<void> | void => {
    switch (message.type) {
      case 'load':
        return load(message.assetBase);
      case 'listen':
        return listen(message.options);
      case 'frames':
        return receiveFrames(message.port);
      case 'end-turn':
        return endTurn();
    }
  };
  enqueue(step);
};
