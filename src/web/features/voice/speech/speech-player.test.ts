// The speech player's failures, against a loopback server speaking the speech route's wire format
// (POST /api/personalities/{id}/voice/speech: audio with x-voice-provider, or the API's JSON error):
// audio that breaks off mid-way (the provider cut it) is spoken by the browser for an OpenAI voice,
// as an upfront refusal is; an ElevenLabs voice's failures show the server's message and are silent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../../shared/messages';
import { encodeWav } from '../audio/wav-encoder';
import { SpeechPlayer } from './speech-player';

/** A short sentence's audio: 0.1 s of quiet 16 kHz WAV. */
const sentenceWav = () => Buffer.from(encodeWav(new Float32Array(1600), 16000));

type Answer =
  | { kind: 'audio' }
  | { kind: 'cut'; provider: string }
  | { kind: 'error'; status: number; code: string; message: string };

let answer: Answer;
let server: http.Server;
let base: string;
const requests: { path: string; text: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', text: JSON.parse(Buffer.concat(parts).toString('utf8')).text });
      if (answer.kind === 'error') {
        return void res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: answer.code, message: answer.message } }));
      }
      if (answer.kind === 'audio') {
        return void res.writeHead(200, { 'content-type': 'audio/wav', 'x-voice-provider': 'openai', 'x-voice-id': 'nova', 'x-voice-volume': '1' }).end(sentenceWav());
      }
      // The provider's audio started, then its connection was cut: the server cuts the client's.
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'x-voice-provider': answer.provider, 'x-voice-id': 'nova', 'x-voice-volume': '1', 'transfer-encoding': 'chunked' });
      res.write(Buffer.alloc(3000, 0xff));
      setTimeout(() => res.socket?.destroy(), 50);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let spoken: { text: string; rate: number; pitch: number }[];

beforeEach(() => {
  requests.length = 0;
  spoken = [];
  const realFetch = globalThis.fetch;
  // The page's relative URLs, to the loopback server (jsdom's AbortSignal is not Node fetch's: left out).
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    const { signal: _signal, ...rest } = init;
    return realFetch(new URL(input, base), rest);
  });
  vi.stubGlobal(
    'SpeechSynthesisUtterance',
    class {
      rate = 1;
      pitch = 1;
      volume = 1;
      onend: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(readonly text: string) {}
    },
  );
  vi.stubGlobal('speechSynthesis', {
    speak(u: { text: string; rate: number; pitch: number; onend: (() => void) | null }) {
      spoken.push({ text: u.text, rate: u.rate, pitch: u.pitch });
      setTimeout(() => u.onend?.(), 0);
    },
    cancel() {},
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Speaks one sentence; resolves with the messages shown once the player is idle again. */
async function speakOne(text: string): Promise<string[]> {
  const errors: string[] = [];
  let idle!: () => void;
  const done = new Promise<void>((resolve) => (idle = resolve));
  const player = new SpeechPlayer({
    personalityId: 'p-1',
    level: () => ({ volume: 0.7, muted: false }),
    onActiveChange: (active) => {
      if (!active) idle();
    },
    onAutoplayBlocked: () => {},
    onError: (message) => errors.push(message),
  });
  player.speak('reply-1', text);
  await done;
  player.dispose();
  return errors;
}

describe('speech that breaks off mid-way', () => {
  it('an OpenAI voice: the browser speaks the sentence (rate 0.9, pitch 1), no error message', async () => {
    answer = { kind: 'cut', provider: 'openai' };
    const errors = await speakOne('The engine weaves algebraic patterns.');
    expect(requests).toEqual([{ path: '/api/personalities/p-1/voice/speech', text: 'The engine weaves algebraic patterns.' }]);
    expect(errors).toEqual([]);
    expect(spoken).toEqual([{ text: 'The engine weaves algebraic patterns.', rate: 0.9, pitch: 1 }]);
  });

  it('an ElevenLabs voice: its failure message, and nothing is spoken by the browser', async () => {
    answer = { kind: 'cut', provider: 'elevenlabs' };
    const errors = await speakOne('Greetings, traveller.');
    expect(errors).toEqual([messages.voice.ttsError]);
    expect(spoken).toEqual([]);
  });
});

describe('refusals show the server\'s message', () => {
  it('an OpenAI voice refused at once (TTS_FALLBACK): the browser speaks', async () => {
    answer = { kind: 'error', status: 502, code: 'TTS_FALLBACK', message: messages.voice.ttsFallback };
    expect(await speakOne('Are you there?')).toEqual([]);
    expect(spoken.map((s) => s.text)).toEqual(['Are you there?']);
  });

  it('ElevenLabs out of credits (402) or rate limited (429): that message, not a generic one; silent', async () => {
    for (const [status, code, message] of [
      [402, 'VOICE_QUOTA', messages.voice.elevenLabsCreditsExhausted],
      [429, 'VOICE_RATE_LIMITED', messages.voice.rateLimited],
    ] as const) {
      answer = { kind: 'error', status, code, message };
      spoken = [];
      expect(await speakOne('Are you there?'), code).toEqual([message]);
      expect(spoken, code).toEqual([]);
    }
  });
});

describe('what a player keeps for replay', () => {
  /** Object URLs made for the audio and not yet revoked (each one keeps its audio alive). */
  let liveUrls: Set<string>;
  let played: number;

  beforeEach(() => {
    answer = { kind: 'audio' };
    liveUrls = new Set();
    played = 0;
    let made = 0;
    // jsdom has no object URLs and plays no media: a URL is a name, and a clip "plays" to its end at once.
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
      const url = `blob:test/${++made}`;
      liveUrls.add(url);
      return url;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void liveUrls.delete(url));
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      played += 1;
      setTimeout(() => {
        this.dispatchEvent(new Event('playing'));
        this.dispatchEvent(new Event('ended'));
      }, 0);
      return Promise.resolve();
    });
  });
  afterEach(() => vi.restoreAllMocks());

  function player(keepForReplay: boolean) {
    let settle: (() => void) | null = null;
    const errors: string[] = [];
    const p = new SpeechPlayer({
      personalityId: 'p-1',
      keepForReplay,
      level: () => ({ volume: 0.7, muted: false }),
      onActiveChange: (active) => {
        if (!active) settle?.();
      },
      onAutoplayBlocked: () => {},
      onError: (message) => errors.push(message),
    });
    /** Runs `action` and resolves once the player has played everything it queued. */
    const untilIdle = (action: () => void) => {
      const idle = new Promise<void>((resolve) => (settle = resolve));
      action();
      return idle;
    };
    return { player: p, untilIdle, errors };
  }

  const turnSentence = (index: number, text: string) => ({ type: 'speech' as const, index, text, mime: 'audio/wav', audio: sentenceWav().toString('base64'), volume: 1, provider: 'openai' });

  it("Self-paced Chat: Replay plays what was spoken without new synthesis; closing the player lets it go", async () => {
    const { player: selfPaced, untilIdle, errors } = player(true);
    await untilIdle(() => {
      selfPaced.speak('reply-1', 'First sentence.');
      selfPaced.speak('reply-1', 'Second sentence.');
      selfPaced.endReply('reply-1');
    });
    expect(requests).toHaveLength(2);
    expect(played).toBe(2);
    // Kept as audio, not as object URLs: none is left once its sentence has played.
    expect(liveUrls.size).toBe(0);

    await untilIdle(() => selfPaced.replay('reply-1', ['First sentence.', 'Second sentence.']));
    expect(requests).toHaveLength(2);
    expect(played).toBe(4);
    expect(liveUrls.size).toBe(0);

    selfPaced.dispose();
    // Nothing is held any more: a replay now has to synthesize the sentences again.
    await untilIdle(() => selfPaced.replay('reply-1', ['First sentence.', 'Second sentence.']));
    expect(requests).toHaveLength(4);
    expect(errors).toEqual([]);
    selfPaced.dispose();
  });

  it('an open-mic call: keeps no clip of what was spoken, and no object URL outlives its sentence', async () => {
    const { player: call, untilIdle, errors } = player(false);
    await untilIdle(() => {
      call.speakTurn('reply-1', turnSentence(0, 'Hello there.'));
      // A streamed sentence: its first bytes, then the rest.
      const wav = sentenceWav();
      call.speakTurn('reply-1', { ...turnSentence(1, 'How are you?'), audio: wav.subarray(0, 100).toString('base64'), more: true });
      call.speakTurn('reply-1', { type: 'speech-more', index: 1, audio: wav.subarray(100).toString('base64') });
      call.speakTurn('reply-1', turnSentence(2, 'Tell me more.'));
      call.endReply('reply-1');
    });
    expect(played).toBe(3);
    expect(liveUrls.size).toBe(0);

    // Nothing was kept: a replay could only synthesize the sentences afresh.
    await untilIdle(() => call.replay('reply-1', ['Hello there.']));
    expect(requests).toEqual([{ path: '/api/personalities/p-1/voice/speech', text: 'Hello there.' }]);
    expect(errors).toEqual([]);
    call.dispose();
  });
});

describe('an open-mic reply whose streamed sentence never ends', () => {
  let heard: string[];

  beforeEach(() => {
    heard = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/clip');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      setTimeout(() => {
        this.dispatchEvent(new Event('playing'));
        this.dispatchEvent(new Event('ended'));
      }, 0);
      return Promise.resolve();
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const wav = sentenceWav();
  const whole = (index: number, text: string) => ({ type: 'speech' as const, index, text, mime: 'audio/wav', audio: wav.toString('base64'), volume: 1, provider: 'openai' });
  /** A streamed sentence's first bytes (the header and a few samples): its `speech-more` events are still to come. */
  const head = (index: number, text: string) => ({ ...whole(index, text), audio: wav.subarray(0, 44 + 200).toString('base64'), more: true });

  /** Runs `action`; resolves with 'idle' once the player has played everything, or 'stuck' if it has not after 2 s. */
  function call() {
    let settle: (() => void) | null = null;
    const player = new SpeechPlayer({
      personalityId: 'p-1',
      keepForReplay: false,
      level: () => ({ volume: 0.7, muted: false }),
      onActiveChange: (active) => {
        if (!active) settle?.();
      },
      onAutoplayBlocked: () => {},
      onError: () => {},
      onPlaybackStart: (replyId) => void (heard.at(-1) !== replyId && heard.push(replyId)),
    });
    const untilIdle = (action: () => void) => {
      const idle = new Promise<'idle'>((resolve) => (settle = () => resolve('idle')));
      action();
      return Promise.race([idle, new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 2000))]);
    };
    return { player, untilIdle };
  }

  it('a reply that ended while a sentence was still arriving (its connection broke): what arrived plays, and the player goes idle', async () => {
    const { player, untilIdle } = call();
    expect(
      await untilIdle(() => {
        player.speakTurn('reply-1', head(0, 'A sentence.'));
        player.endReply('reply-1');
      }),
    ).toBe('idle');
    expect(heard).toEqual(['reply-1']);
    player.dispose();
  });

  it('a reply given up mid-sentence (its turn was superseded) does not hold the next reply back', async () => {
    const { player, untilIdle } = call();
    expect(
      await untilIdle(() => {
        player.speakTurn('reply-1', head(0, 'Answer to the first part.'));
        player.speakTurn('reply-2', whole(0, 'Answer to the rest.'));
        player.endReply('reply-2');
      }),
    ).toBe('idle');
    expect(heard.at(-1)).toBe('reply-2');
    player.dispose();
  });
});
