// The chat recorder (spec section 9): the microphone captured as 24 kHz mono PCM by an
// AudioWorklet, downsampled to a 16 kHz 16-bit WAV when recording stops.
import { downsample, encodeWav, joinFrames } from './wav-encoder';

export const CAPTURE_RATE = 24_000;
export const UPLOAD_RATE = 16_000;

export interface Recording {
  wav: Uint8Array<ArrayBuffer>;
  seconds: number;
}

export interface PcmRecorder {
  /** Stops the microphone and returns the recording. */
  stop(): Promise<Recording>;
  /** Stops the microphone and drops what was recorded. */
  cancel(): void;
}

const workletUrl = new URL('./pcm-capture.worklet.js', import.meta.url).href;

/** Asks for the microphone and starts capturing. getUserMedia's errors are thrown as they are. */
export async function startPcmRecorder(): Promise<PcmRecorder> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  });
  let ctx: AudioContext | undefined;
  try {
    ctx = new AudioContext({ sampleRate: CAPTURE_RATE });
    await ctx.audioWorklet.addModule(workletUrl);
    const source = ctx.createMediaStreamSource(stream);
    const capture = new AudioWorkletNode(ctx, 'pcm-capture', { numberOfInputs: 1, numberOfOutputs: 1, channelCount: 1 });
    // A silent path to the speakers keeps the graph pulling the worklet in every browser.
    const mute = ctx.createGain();
    mute.gain.value = 0;
    const frames: Float32Array[] = [];
    capture.port.onmessage = (e: MessageEvent<Float32Array>) => frames.push(e.data);
    source.connect(capture).connect(mute).connect(ctx.destination);
    const context = ctx;
    const release = () => {
      stream.getTracks().forEach((t) => t.stop());
      capture.port.onmessage = null;
      source.disconnect();
      capture.disconnect();
      void context.close().catch(() => undefined);
    };
    return {
      async stop() {
        // Let the worklet post its last block before the graph is torn down.
        await new Promise((r) => setTimeout(r, 60));
        release();
        const samples = downsample(joinFrames(frames), context.sampleRate, UPLOAD_RATE);
        return { wav: encodeWav(samples, UPLOAD_RATE), seconds: samples.length / UPLOAD_RATE };
      },
      cancel: release,
    };
  } catch (err) {
    stream.getTracks().forEach((t) => t.stop());
    void ctx?.close().catch(() => undefined);
    throw err;
  }
}
