// The embedded voice is not asked to speak what it would answer with silence.
import { describe, expect, it } from 'vitest';
import { bytesStream } from '../../ai/speech/speech-types';
import { fliteSynthesize, fliteWasmPath } from '../../ai/speech/flite-text-to-speech';
import { audibleOrNothing, embeddedVoiceCanSpeak } from './embedded-voice';

describe('embeddedVoiceCanSpeak', () => {
  it('is true for English (and text mostly in ASCII letters), false for other scripts', () => {
    expect(embeddedVoiceCanSpeak('Hello there, my friend.')).toBe(true);
    expect(embeddedVoiceCanSpeak('My crème brûlée.')).toBe(true);
    expect(embeddedVoiceCanSpeak('Born in 1883.')).toBe(true);
    for (const text of ['李白是唐朝著名的诗人。', 'ولد جبران', '١٨٨٣', 'Толстой', 'é', '李白是唐朝著名的诗人 (Li Bai)。']) expect(embeddedVoiceCanSpeak(text), text).toBe(false);
  });
});

describe.skipIf(fliteWasmPath() === undefined)('audibleOrNothing (with flite)', () => {
  it('is nothing for the header-only WAV flite makes of Chinese, the same bytes for English', async () => {
    const silent = await fliteSynthesize('李白');
    expect(silent.byteLength).toBe(44);
    expect(await audibleOrNothing({ mime: 'audio/wav', stream: bytesStream(silent) })).toBeUndefined();
    const spoken = await fliteSynthesize('Hello.');
    const kept = await audibleOrNothing({ mime: 'audio/wav', stream: bytesStream(spoken) });
    expect(kept?.mime).toBe('audio/wav');
    expect(new Uint8Array(await new Response(kept!.stream).arrayBuffer())).toEqual(spoken);
  });
});
