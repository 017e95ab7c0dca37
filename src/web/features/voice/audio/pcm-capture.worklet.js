// AudioWorklet processor (runs on the audio thread): posts each block of the first input channel
// to the main thread as a Float32Array. Served as a file from our own origin (the CSP allows
// scripts from 'self' only, so a blob: module would be refused).
class PcmCaptureProcessor extends AudioWorkletProcessor {
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel && channel.length) this.port.postMessage(channel.slice(0));
    return true;
  }
}
registerProcessor('pcm-capture', PcmCaptureProcessor);
