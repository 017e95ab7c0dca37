// Messages between the page and the VAD worker (vad.worker.ts). The page's AudioWorklet cuts the
// microphone into 16 kHz frames; the page hands the worklet's port to the worker, so the frames go
// from the audio thread to the worker directly (buffers transferred, not copied), and the worker
// answers the page with turn-taking events.

/** The rate the worklet resamples the microphone to, and the model reads. */
export const VAD_SAMPLE_RATE = 16000;
/** Samples in a frame at 16 kHz (Silero v5 reads 512: 32 ms); the worklet cuts them, the worker times them. */
export const VAD_FRAME_SAMPLES = 512;

/** The frame processor's settings (see @ricky0123/vad-web's FrameProcessorOptions). */
export interface VadListenOptions {
  positiveSpeechThreshold: number;
  negativeSpeechThreshold: number;
  /** Silence after speech that ends the turn (the server's VOICE_END_OF_TURN_MS). */
  redemptionMs: number;
  preSpeechPadMs: number;
  minSpeechMs: number;
}

/**
 * The frame processor's settings for a call. Thresholds as @ricky0123/vad-web tunes them for Silero
 * v5 (its defaults): with 0.5 / 0.35, the legacy model's, v5 heard the start of some utterances up
 * to ~400 ms late (its probability lingers just under 0.5 on a first syllable), and barge-in waited
 * as long; the end of turn is the same either way (bench/vad-detection.bench.ts). The pre-speech pad
 * and minimum speech stay short: a turn keeps 300 ms from before its start, and a 250 ms noise is
 * not a turn.
 */
export function vadListenOptions(endOfTurnMs: number): VadListenOptions {
  return { positiveSpeechThreshold: 0.3, negativeSpeechThreshold: 0.25, redemptionMs: endOfTurnMs, preSpeechPadMs: 300, minSpeechMs: 250 };
}

export type PageToVad =
  /** Load onnxruntime-web and the Silero model from `assetBase` (done ahead, while the person reads). */
  | { type: 'load'; assetBase: string }
  /** Start a call: frames processed from now with these settings. */
  | { type: 'listen'; options: VadListenOptions }
  /**
   * The AudioWorklet's port: from now on it posts the frames here itself, each
   * `{ message: 'AUDIO_FRAME', data }` with VAD_FRAME_SAMPLES samples at 16 kHz (a Float32Array's
   * buffer). The call's end terminates the worker.
   */
  | { type: 'frames'; port: MessagePort }
  /**
   * End the turn now, as if the person had paused (their speech reached the longest turn the server
   * takes): speech-end follows with the audio so far if speech is under way, and speech that goes
   * on starts the next turn.
   */
  | { type: 'end-turn' };

export type VadToPage =
  /** The model is loaded: a call can start. */
  | { type: 'loaded' }
  /** Loading or running the model failed (the message is for the console, not the person). */
  | { type: 'failed'; message: string }
  /** Speech began; `decidedAt` as in speech-end (benchmarks split a barge-in's time with it). */
  | { type: 'speech-start'; decidedAt: number }
  /**
   * The turn is over: 16 kHz mono samples of what was said (a Float32Array's buffer). `decidedAt`:
   * when the worker decided, as performance.timeOrigin + performance.now() (comparable across threads).
   */
  | { type: 'speech-end'; audio: ArrayBuffer; decidedAt: number }
  /** Too short to be speech. */
  | { type: 'misfire' };
