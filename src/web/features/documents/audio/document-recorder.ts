// The document recording widget's recorder (spec section 9): the microphone at 44.1 kHz mono,
// recorded by MediaRecorder as WebM/Opus in 100 ms chunks, for a preview the person can play.
// For the upload it is decoded in the browser and sent as a 16 kHz mono WAV: every speech-to-
// text engine reads WAV (the offline recognizer reads nothing else) and the server never needs
// an audio decoder. 16 kHz 16-bit mono is 1.9 MB a minute, so 10 minutes fit under 20 MB.
import { downsample, encodeWav } from '../../voice/audio/wav-encoder';

export const RECORDING_SAMPLE_RATE = 44_100;
export const RECORDING_CHUNK_MS = 100;
export const UPLOAD_SAMPLE_RATE = 16_000;
/** Longest recording: its WAV stays under the 20 MB transcription limit. */
export const RECORDING_MAX_SECONDS = 10 * 60;

export interface DocumentRecording {
  blob: Blob;
  seconds: number;
}

export interface DocumentRecorder {
  stop(): Promise<DocumentRecording>;
  cancel(): void;
}

function preferredType(): string | undefined {
  if (typeof MediaRecorder === 'undefined' || typeof MediaRecorder.isTypeSupported !== 'function') return undefined;
  return ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus'].find((t) => MediaRecorder.isTypeSupported(t));
}

/** Asks for the microphone and starts recording; getUserMedia's errors are thrown as they are. */
export async function startDocumentRecorder(): Promise<DocumentRecorder> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, sampleRate: RECORDING_SAMPLE_RATE, echoCancellation: true, noiseSuppression: true },
  });
  const mimeType = preferredType();
  let recorder: MediaRecorder;
  try {
    recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
  } catch (err) {
    stream.getTracks().forEach((t) => t.stop());
    throw err;
  }
  const chunks: Blob[] = [];
  const started = performance.now();
  recorder.ondataavailable = (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  };
  recorder.start(RECORDING_CHUNK_MS);
  const release = () => stream.getTracks().forEach((t) => t.stop());
  return {
    stop: () =>
      new Promise<DocumentRecording>((resolve) => {
        recorder.onstop = () => {
          release();
          resolve({ blob: new Blob(chunks, { type: recorder.mimeType || mimeType || 'audio/webm' }), seconds: (performance.now() - started) / 1000 });
        };
        recorder.stop();
      }),
    cancel() {
      recorder.onstop = null;
      if (recorder.state !== 'inactive') recorder.stop();
      release();
    },
  };
}

/** Decodes a recording and encodes it as a 16 kHz mono WAV (channels averaged). */
export async function recordingToWav(blob: Blob): Promise<Uint8Array<ArrayBuffer>> {
  const context = new AudioContext();
  try {
    const audio = await context.decodeAudioData(await blob.arrayBuffer());
    const mono = new Float32Array(audio.length);
    for (let ch = 0; ch < audio.numberOfChannels; ch++) {
      const data = audio.getChannelData(ch);
      for (let i = 0; i < mono.length; i++) mono[i]! += data[i]! / audio.numberOfChannels;
    }
    return encodeWav(downsample(mono, audio.sampleRate, UPLOAD_SAMPLE_RATE), UPLOAD_SAMPLE_RATE);
  } finally {
    void context.close().catch(() => undefined);
  }
}
