// Speaking a reply as it streams: WAV goes out as the provider makes it (the first bytes before
// the sentence's audio is complete, the rest in order, one sentence after another), MP3 whole;
// a replaced reply ends the sentence being sent; a cancelled turn sends nothing more.
import { describe, expect, it } from 'vitest';
import type { TurnAudioEvent } from '../../../shared/voice-turn-stream';
import { AppError } from '../../lib/errors';
import { createSpokenReply, type SpokenAudio } from './spoken-reply';

/** A provider's audio stream the test feeds by hand. */
function handFed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { stream, send: (...bytes: number[]) => controller.enqueue(Uint8Array.from(bytes)), end: () => controller.close() };
}

const settle = () => new Promise((r) => setTimeout(r, 5));
const bytesOf = (audio: string) => [...Buffer.from(audio, 'base64')];

/** Each sentence's provider; `counted` says its limits are counted (else that happens when it returns). */
function setup(speakers: Record<string, (counted: () => void) => SpokenAudio | Promise<SpokenAudio>>) {
  const events: TurnAudioEvent[] = [];
  const abort = new AbortController();
  const asked: string[] = [];
  const spoken = createSpokenReply({
    signal: abort.signal,
    emit: async (e) => void events.push(e),
    speak: async (text, _signal, counted) => {
      asked.push(text);
      const speaker = speakers[text];
      if (!speaker) throw new AppError('BAD_REQUEST');
      return speaker(counted);
    },
  });
  return { events, abort, asked, spoken };
}

const wav = (stream: ReadableStream<Uint8Array>): SpokenAudio => ({ mime: 'audio/wav', stream, volume: 1, provider: 'openai' });

describe('createSpokenReply', () => {
  it("sends a WAV sentence's first bytes before its audio is complete, then the rest, in order, sentence after sentence", async () => {
    const first = handFed();
    const second = handFed();
    const t = setup({ 'The first one is here.': () => wav(first.stream), 'And here is a second.': () => wav(second.stream) });
    t.spoken.finish('The first one is here. And here is a second.');
    await settle();
    // Both are being made (two ahead); the second's bytes arrive first and wait their turn.
    expect(t.asked).toEqual(['The first one is here.', 'And here is a second.']);
    second.send(9, 9);
    second.end();
    first.send(1, 2, 3);
    await settle();
    expect(t.events).toEqual([{ type: 'speech', index: 0, text: 'The first one is here.', mime: 'audio/wav', audio: Buffer.from([1, 2, 3]).toString('base64'), volume: 1, provider: 'openai', more: true }]);
    first.send(4);
    await settle();
    first.send(5);
    first.end();
    await t.spoken.done();
    expect(t.events.slice(1).map((e) => [e.type, e.index, bytesOf(e.type === 'speech' && 'audio' in e ? e.audio : e.type === 'speech-more' ? e.audio : ''), 'more' in e ? e.more : undefined])).toEqual([
      ['speech-more', 0, [4], true],
      ['speech-more', 0, [5], true],
      ['speech-more', 0, [], undefined],
      // The second sentence had all arrived: its bytes in one event, then its end.
      ['speech', 1, [9, 9], true],
      ['speech-more', 1, [], undefined],
    ]);
  });

  it('sends MP3 whole, in one event (the browser decodes it whole)', async () => {
    const mp3 = handFed();
    const t = setup({ 'An MP3 sentence here.': () => ({ mime: 'audio/mpeg', stream: mp3.stream, volume: 1.2, provider: 'elevenlabs' }) });
    t.spoken.finish('An MP3 sentence here.');
    await settle();
    mp3.send(1, 2);
    await settle();
    expect(t.events).toEqual([]);
    mp3.send(3);
    mp3.end();
    await t.spoken.done();
    expect(t.events).toEqual([{ type: 'speech', index: 0, text: 'An MP3 sentence here.', mime: 'audio/mpeg', audio: Buffer.from([1, 2, 3]).toString('base64'), volume: 1.2, provider: 'elevenlabs' }]);
  });

  it('a reply replaced while a sentence is being sent ends that sentence, then speaks the replacement', async () => {
    const long = handFed();
    const fallback = handFed();
    const t = setup({ 'This is what the model said.': () => wav(long.stream), 'Something else entirely.': () => wav(fallback.stream) });
    t.spoken.finish('This is what the model said.');
    await settle();
    long.send(1);
    await settle();
    // The provider goes quiet: the replacement does not wait for it.
    t.spoken.replaceWith('Something else entirely.');
    fallback.send(7);
    fallback.end();
    await settle();
    await t.spoken.done();
    expect(t.events.map((e) => [e.type, e.index, e.type === 'speech' ? e.text : '', bytesOf('audio' in e ? e.audio : '')])).toEqual([
      ['speech', 0, 'This is what the model said.', [1]],
      ['speech-more', 0, '', []],
      ['speech', 0, 'Something else entirely.', [7]],
      ['speech-more', 0, '', []],
    ]);
  });

  it('a provider failing mid-sentence ends the sentence with what arrived; a cancelled turn sends nothing more', async () => {
    let failing!: ReadableStreamDefaultController<Uint8Array>;
    const broken = new ReadableStream<Uint8Array>({ start: (c) => void (failing = c) });
    const t = setup({ 'It breaks half way through.': () => wav(broken) });
    t.spoken.finish('It breaks half way through.');
    await settle();
    failing.enqueue(Uint8Array.from([1, 2]));
    await settle();
    failing.error(new Error('connection reset'));
    await t.spoken.done();
    expect(t.events.map((e) => [e.type, 'more' in e ? e.more : undefined])).toEqual([
      ['speech', true],
      ['speech-more', undefined],
    ]);

    const slow = handFed();
    const c = setup({ 'This one is cancelled.': () => wav(slow.stream) });
    c.spoken.finish('This one is cancelled.');
    await settle();
    slow.send(1);
    await settle();
    c.abort.abort();
    slow.send(2);
    slow.end();
    await c.spoken.done();
    expect(c.events.map((e) => e.type)).toEqual(['speech']);
  });

  describe('limits and credits are counted in reply order', () => {
    /** Two sentences; the first fails before it is counted (a limit, or a provider the browser's voice stands in for). */
    function firstFails(code: ConstructorParameters<typeof AppError>[0]) {
      const second = handFed();
      const t = setup({
        'The first sentence.': () => {
          throw new AppError(code);
        },
        'The second sentence.': () => wav(second.stream),
      });
      return { ...t, second };
    }

    it('the second sentence counts only once the first has, and is then synthesized alongside it', async () => {
      let letCount!: () => void;
      const counts = new Promise<void>((r) => (letCount = r));
      const audio = handFed();
      let synthesized!: (a: SpokenAudio) => void;
      const { spoken, asked, events } = setup({
        'The first sentence.': async (counted) => {
          await counts;
          counted();
          return new Promise<SpokenAudio>((r) => (synthesized = r));
        },
        'The second sentence.': () => wav(handFed().stream),
      });
      spoken.finish('The first sentence. The second sentence.');
      await settle();
      expect(asked).toEqual(['The first sentence.']);
      letCount();
      await settle();
      // Counted: the second is asked while the first is still being synthesized.
      expect(asked).toEqual(['The first sentence.', 'The second sentence.']);
      synthesized(wav(audio.stream));
      audio.send(1);
      audio.end();
      await settle();
      expect(events[0]).toMatchObject({ type: 'speech', index: 0 });
    });

    it('a first sentence refused by a limit leaves the second uncounted and the reply silent', async () => {
      const t = firstFails('VOICE_RATE_LIMITED');
      t.spoken.finish('The first sentence. The second sentence.');
      await t.spoken.done();
      expect(t.asked).toEqual(['The first sentence.']);
      expect(t.events).toEqual([expect.objectContaining({ type: 'speech', index: 0, error: expect.objectContaining({ code: 'VOICE_RATE_LIMITED' }) })]);
    });

    it("a first sentence the browser's voice stands in for lets the second count and be spoken", async () => {
      const t = firstFails('TTS_FALLBACK');
      t.spoken.finish('The first sentence. The second sentence.');
      await settle();
      t.second.send(7);
      t.second.end();
      await t.spoken.done();
      expect(t.asked).toEqual(['The first sentence.', 'The second sentence.']);
      expect(t.events.map((e) => [e.type, e.index, 'error' in e ? e.error.code : null])).toEqual([
        ['speech', 0, 'TTS_FALLBACK'],
        ['speech', 1, null],
        ['speech-more', 1, null],
      ]);
    });
  });
});
