// What the embedded voices (flite, festival's US English voice) can say. They speak English: only
// ASCII letters and digits make a sound (flite answers "李白", "ولد", "Толстой", even "é" alone with
// a WAV that is all header, 44 bytes), so the player would play silence. Such text is left to the
// browser's voice (TTS_BROWSER), which has voices for many languages.
import { bytesStream, type SynthesizedAudio } from '../../ai/speech/speech-types';
import { checkWav } from './wav-check';

const letterCount = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/**
 * Whether the embedded voice says most of `text`: at least half of its letters and digits are
 * ASCII. A Chinese sentence naming "Li Bai" would otherwise be spoken as those two words alone.
 */
export function embeddedVoiceCanSpeak(text: string): boolean {
  const spoken = letterCount(text, /[A-Za-z0-9]/g);
  return spoken > 0 && spoken * 2 >= letterCount(text, /[\p{L}\p{N}]/gu);
}

/**
 * The synthesized audio when it holds any sound, else undefined. The embedded voices write the
 * whole file before answering, so reading it here costs no waiting.
 */
export async function audibleOrNothing(audio: SynthesizedAudio): Promise<SynthesizedAudio | undefined> {
  const bytes = new Uint8Array(await new Response(audio.stream).arrayBuffer());
  const wav = checkWav(bytes);
  const silent = wav.ok ? wav.dataBytes === 0 : bytes.byteLength <= WAV_HEADER_BYTES;
  return silent ? undefined : { ...audio, stream: bytesStream(bytes) };
}

/** A canonical WAV file's header: a file no longer than this has no samples. */
const WAV_HEADER_BYTES = 44;
