// What the browser checks before an audio upload (the server checks the bytes again): the spec's
// types (MP3, WAV, M4A) by name or type, its 20MB limit for transcription and 11MB for a clone sample.
import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';

export const AUDIO_ACCEPT = '.mp3,.wav,.m4a,audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/x-m4a';
const AUDIO_EXTENSIONS = /\.(mp3|wav|m4a)$/i;
const AUDIO_TYPES = new Set(['audio/mpeg', 'audio/mp3', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mp4', 'audio/x-m4a', 'audio/m4a']);

/** Spec section 5: voice-clone samples up to 11MB. */
export const CLONE_SAMPLE_MAX_BYTES = 11 * 1024 * 1024;

/** The spec's message for a file that cannot be sent, or null when it may be (transcription's limit by default). */
export function audioFileProblem(file: File, maxBytes: number = limits.audioTranscriptionMaxBytes, tooLarge: string = messages.documents.audioTooLarge): string | null {
  if (!AUDIO_EXTENSIONS.test(file.name) && !AUDIO_TYPES.has(file.type)) return messages.documents.audioType;
  if (file.size > maxBytes) return tooLarge;
  return null;
}
