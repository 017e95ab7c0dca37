// The Open Mic Chat tab's call state (useOpenMic) with its engines' edges faked: the microphone
// (getUserMedia), voice detection (the Silero VAD worker) and the ElevenLabs client. End Call, or
// leaving the tab, while the call is still connecting ends it for good: no microphone stays open,
// nothing connects later; and after a call the next one is readied again ("Pre-loaded").
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VadHandle } from './silero-vad';
import { useOpenMic, type OpenMicOptions } from './use-open-mic';

const vad = vi.hoisted(() => ({
  created: 0,
  destroyed: 0,
  preloads: [] as { resolve: () => void; reject: (err: Error) => void }[],
}));
vi.mock('./silero-vad', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./silero-vad')>()),
  createSileroVad: async (): Promise<VadHandle> => {
    vad.created += 1;
    return { endTurn: () => {}, destroy: async () => void (vad.destroyed += 1) };
  },
  // Each preload is a worker loading its model: the test says when it is ready.
  preloadVad: () => new Promise<void>((resolve, reject) => vad.preloads.push({ resolve, reject })),
}));

vi.mock('../api/voice-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/voice-api')>()),
  useVoiceCapabilities: () => ({ data: undefined }),
  warmVoice: async () => {},
}));

const agent = vi.hoisted(() => ({
  sessions: [] as { resolve: () => void; ended: boolean }[],
}));
vi.mock('@elevenlabs/client', () => ({
  Conversation: {
    startSession: () =>
      new Promise((resolve) => {
        const session = { ended: false, resolve: () => resolve(conversation) };
        const conversation = { setVolume: () => {}, endSession: async () => void (session.ended = true) };
        agent.sessions.push(session);
      }),
  },
}));
vi.mock('./open-mic-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./open-mic-api')>()),
  requestSignedUrl: async () => ({ signedUrl: 'wss://agent.example/socket', callToken: 'token' }),
}));

/** Microphone tracks handed out, live until stopped. */
let tracks: (EventTarget & { readyState: 'live' | 'ended'; stop(): void })[];
/** getUserMedia calls waiting for the test to hand out their stream (the person reading the permission prompt). */
let pendingMicrophones: (() => void)[];

beforeEach(() => {
  vad.created = 0;
  vad.destroyed = 0;
  vad.preloads.length = 0;
  agent.sessions.length = 0;
  tracks = [];
  pendingMicrophones = [];
  vi.stubGlobal(
    'AudioContext',
    class {
      state = 'suspended';
      resume = async () => {};
      close = async () => {};
      decodeAudioData = async () => ({});
    },
  );
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: () =>
        new Promise<MediaStream>((resolve) =>
          pendingMicrophones.push(() => {
            const track = Object.assign(new EventTarget(), { readyState: 'live' as 'live' | 'ended', stop: () => void (track.readyState = 'ended') });
            tracks.push(track);
            resolve({ getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream);
          }),
        ),
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (navigator as { mediaDevices?: unknown }).mediaDevices;
});

const flush = () => act(() => new Promise<void>((r) => setTimeout(r, 0)));
const liveTracks = () => tracks.filter((t) => t.readyState === 'live').length;

function openMic(agentId: string | null = null) {
  const options: OpenMicOptions = {
    personality: { id: 'p1', agentId },
    viewerKey: 'viewer',
    endOfTurnMs: 700,
    send: async () => true,
    stopReply: () => {},
    chatContext: () => ({}),
    appendLine: () => {},
    adoptConversation: () => {},
    currentConversationId: () => null,
  };
  return renderHook(() => useOpenMic(options));
}

describe('ending a call that is still connecting', () => {
  it('End Call while the microphone is opening: disconnected at once, and the microphone is released the moment it opens', async () => {
    const { result } = openMic();
    void act(() => void result.current.start());
    await flush();
    expect(result.current.status).toBe('connecting');
    await act(() => result.current.hangUp());
    expect(result.current.status).toBe('disconnected');
    // The person answers the browser's prompt after all: the call must not go on.
    await act(async () => pendingMicrophones.shift()!());
    await flush();
    expect(liveTracks()).toBe(0);
    expect(vad.created).toBe(0);
    expect(result.current.status).toBe('disconnected');
    expect(result.current.problem).toBeNull();
  });

  it('leaving the tab while connecting releases the microphone once it opens; nothing listens', async () => {
    const { result, unmount } = openMic();
    void act(() => void result.current.start());
    await flush();
    unmount();
    pendingMicrophones.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(tracks).toHaveLength(1);
    expect(liveTracks()).toBe(0);
    expect(vad.created).toBe(0);
  });

  it('End, Start, End while connecting: both microphones are released, the call ends Disconnected', async () => {
    const { result } = openMic();
    void act(() => void result.current.start());
    await flush();
    await act(() => result.current.hangUp());
    void act(() => void result.current.start());
    await flush();
    expect(result.current.status).toBe('connecting');
    // The first call's microphone opens while the second is connecting: the first stays ended.
    await act(async () => pendingMicrophones.shift()!());
    await flush();
    expect(liveTracks()).toBe(0);
    expect(result.current.status).toBe('connecting');
    await act(() => result.current.hangUp());
    await act(async () => pendingMicrophones.shift()!());
    await flush();
    expect(tracks).toHaveLength(2);
    expect(liveTracks()).toBe(0);
    expect(vad.created).toBe(0);
    expect(result.current.status).toBe('disconnected');
  });

  it('an agent call ended while its session is opening is closed as soon as it opens', async () => {
    const { result } = openMic('agent-1');
    void act(() => void result.current.start());
    for (let i = 0; i < 20 && agent.sessions.length === 0; i++) await flush();
    expect(agent.sessions).toHaveLength(1);
    await act(() => result.current.hangUp());
    expect(result.current.status).toBe('disconnected');
    await act(async () => agent.sessions[0]!.resolve());
    await flush();
    expect(agent.sessions[0]!.ended).toBe(true);
    expect(result.current.status).toBe('disconnected');
    expect(result.current.problem).toBeNull();
  });
});

describe('"Pre-loaded" between calls', () => {
  it('after a call ends, the next call is readied again; the badge shows only once it is ready', async () => {
    const { result } = openMic();
    expect(vad.preloads).toHaveLength(1);
    await act(async () => vad.preloads[0]!.resolve());
    expect(result.current.preloaded).toBe(true);

    void act(() => void result.current.start());
    await flush();
    await act(async () => pendingMicrophones.shift()!());
    await flush();
    expect(result.current.status).toBe('connected');
    // This call started from the pre-loaded detection (and took it).
    expect(result.current.preloaded).toBe(true);
    await act(() => result.current.hangUp());
    expect(result.current.status).toBe('disconnected');
    // The call's detection is gone with it: a new one loads for the next call.
    expect(vad.preloads).toHaveLength(2);
    expect(result.current.preloaded).toBe(false);
    await act(async () => vad.preloads[1]!.resolve());
    expect(result.current.preloaded).toBe(true);
  });
});
