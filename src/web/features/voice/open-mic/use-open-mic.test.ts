// The Open Mic Chat tab's call state (useOpenMic) with its engines' edges faked: the microphone
// (getUserMedia), voice detection (the Silero VAD worker) and the ElevenLabs client. End Call, or
// leaving the tab, while the call is still connecting ends it for good: no microphone stays open,
// nothing connects later; and after a call the next one is readied again ("Pre-loaded"). A call
// the server refuses for its personality or session (404, 401, 403: unshared, deleted, made
// private, signed out) ends at once, microphone released, and the app is told as for any other call.
import { act, renderHook } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onSessionEnded } from '../../../lib/auth-sync';
import { onPersonalityMissing } from '../../../lib/personality-missing';
import { AGENT_URL_FRESH_MS, agentUrlPool } from './agent-url-pool';
import type { VadCallbacks, VadHandle } from './silero-vad';
import { CALL_ENDED_TITLE, useOpenMic, type OpenMicOptions } from './use-open-mic';

const vad = vi.hoisted(() => ({
  created: 0,
  destroyed: 0,
  preloads: [] as { resolve: () => void; reject: (err: Error) => void }[],
  callbacks: null as VadCallbacks | null,
}));
vi.mock('./silero-vad', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./silero-vad')>()),
  createSileroVad: async (callbacks: VadCallbacks): Promise<VadHandle> => {
    vad.created += 1;
    vad.callbacks = callbacks;
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

type AgentMessage = { source: 'user' | 'ai'; message: string };
const agent = vi.hoisted(() => ({
  sessions: [] as { resolve: () => void; ended: boolean; signedUrl: string; onMessage: (m: AgentMessage) => void }[],
}));
vi.mock('@elevenlabs/client', () => ({
  Conversation: {
    startSession: (options: { signedUrl: string; onMessage: (m: AgentMessage) => void; onStatusChange: (s: { status: string }) => void }) =>
      new Promise((resolve) => {
        const opened = () => {
          options.onStatusChange({ status: 'connected' });
          resolve(conversation);
        };
        const session = { ended: false, resolve: opened, signedUrl: options.signedUrl, onMessage: options.onMessage };
        const conversation = { setVolume: () => {}, endSession: async () => void (session.ended = true) };
        agent.sessions.push(session);
      }),
  },
}));

/**
 * The server, behind fetch: the agent's signed URLs (one per request, numbered), its transcript
 * lines and the hands-free voice turns answer what each test sets (by default: granted).
 */
const server = {
  signedUrls: 0,
  session: { status: 200, body: {} as unknown },
  transcript: { status: 200, body: { conversationId: null, saved: false, creditsExhausted: false } as unknown },
  turn: { status: 200, body: {} as unknown },
  requests: [] as string[],
};
const refusal = (status: number, code: string, message: string) => ({ status, body: { error: { code, message } } });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
function fakeFetch(input: RequestInfo | URL): Promise<Response> {
  const path = String(input);
  server.requests.push(path);
  if (path.endsWith('/voice/agent/session')) {
    if (server.session.status !== 200) return Promise.resolve(json(server.session.status, server.session.body));
    server.signedUrls += 1;
    return Promise.resolve(json(200, { signedUrl: `wss://agent.example/socket?n=${server.signedUrls}`, agentId: 'agent-1', callToken: 'token' }));
  }
  if (path.endsWith('/voice/agent/transcript')) return Promise.resolve(json(server.transcript.status, server.transcript.body));
  if (path.endsWith('/voice/turn')) return Promise.resolve(json(server.turn.status, server.turn.body));
  return Promise.resolve(json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } }));
}
const requestsTo = (what: string) => server.requests.filter((p) => p.endsWith(what)).length;

/** Microphone tracks handed out, live until stopped. */
let tracks: (EventTarget & { readyState: 'live' | 'ended'; stop(): void })[];
/** getUserMedia calls waiting for the test to hand out their stream (the person reading the permission prompt). */
let pendingMicrophones: (() => void)[];

beforeEach(() => {
  vad.created = 0;
  vad.destroyed = 0;
  vad.preloads.length = 0;
  vad.callbacks = null;
  agent.sessions.length = 0;
  agentUrlPool.clear();
  Object.assign(server, { signedUrls: 0, requests: [] });
  server.session = { status: 200, body: {} };
  server.transcript = { status: 200, body: { conversationId: null, saved: false, creditsExhausted: false } };
  server.turn = { status: 200, body: {} };
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
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
  vi.restoreAllMocks();
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

/** Turns of the event loop until `done`, for up to 2 s (then the expectations after it say what is wrong). */
async function until(done: () => boolean) {
  const deadline = performance.now() + 2_000;
  while (!done() && performance.now() < deadline) await flush();
}

/** An agent call, connected from its pre-loaded URL. */
async function connectedAgentCall() {
  const hook = openMic('agent-1');
  await until(() => agentUrlPool.ready('viewer:p1'));
  void act(() => void hook.result.current.start());
  await until(() => agent.sessions.length === 1);
  await act(async () => agent.sessions[0]!.resolve());
  await flush();
  expect(hook.result.current.status).toBe('connected');
  return { ...hook, session: agent.sessions[0]! };
}

/** A hands-free call, connected. */
async function connectedHandsFreeCall() {
  const hook = openMic();
  void act(() => void hook.result.current.start());
  await flush();
  await act(async () => pendingMicrophones.shift()!());
  await flush();
  expect(hook.result.current.status).toBe('connected');
  return hook;
}

const aSentence = () => new Float32Array(16000).fill(0.1);

describe('a call the server stops taking (the personality went away, or the session ended)', () => {
  it('an agent call whose line is refused with 404 (unshared, deleted, made private) ends at once: the session is closed, the app told, later lines not sent', async () => {
    const missing = vi.fn();
    const stopListening = onPersonalityMissing(missing);
    const toastError = vi.spyOn(toast, 'error');
    const { result, session } = await connectedAgentCall();
    server.transcript = refusal(404, 'NOT_FOUND', 'Personality not found');
    // The greeting and the person's first words arrive together: both are queued for saving.
    act(() => {
      session.onMessage({ source: 'ai', message: 'Hello, how can I help?' });
      session.onMessage({ source: 'user', message: 'Tell me about your work' });
    });
    await until(() => session.ended && result.current.status === 'disconnected');
    // The socket is closed (the client releases the microphone with it): the call is over.
    expect(session.ended).toBe(true);
    expect(result.current.status).toBe('disconnected');
    expect(result.current.problem).toEqual({ message: 'Personality not found', canReconnect: false, title: CALL_ENDED_TITLE });
    // The conversation gives way to "This personality is not available." as for the text chat.
    expect(missing).toHaveBeenCalledTimes(1);
    // The second line is not sent to be refused again, and nothing is toasted line by line.
    expect(requestsTo('/voice/agent/transcript')).toBe(1);
    expect(toastError).not.toHaveBeenCalled();
    // Nor is a next call readied for a personality the server refuses.
    await flush();
    expect(requestsTo('/voice/agent/session')).toBe(1);
    stopListening();
  });

  it('an agent call whose line is refused with 401 (signed out) ends at once, and the app checks the session', async () => {
    const ended = vi.fn();
    const stopListening = onSessionEnded(ended);
    const { result, session } = await connectedAgentCall();
    server.transcript = refusal(401, 'UNAUTHENTICATED', 'Authentication required');
    act(() => session.onMessage({ source: 'ai', message: 'Hello' }));
    await until(() => session.ended && result.current.status === 'disconnected');
    expect(session.ended).toBe(true);
    expect(result.current.problem).toEqual({ message: 'Authentication required', canReconnect: false, title: CALL_ENDED_TITLE });
    expect(ended).toHaveBeenCalledTimes(1);
    stopListening();
  });

  it('an agent call whose line fails for another reason goes on, saying that line was not saved', async () => {
    const toastError = vi.spyOn(toast, 'error');
    const { result, session } = await connectedAgentCall();
    server.transcript = refusal(500, 'INTERNAL', 'Something went wrong');
    act(() => session.onMessage({ source: 'ai', message: 'Hello' }));
    await until(() => toastError.mock.calls.length > 0);
    expect(toastError).toHaveBeenCalledWith('Part of this call could not be saved to the conversation.');
    expect(session.ended).toBe(false);
    expect(result.current.status).toBe('connected');
    expect(result.current.problem).toBeNull();
  });

  it.each([
    [404, 'NOT_FOUND', 'Personality not found'],
    [403, 'FORBIDDEN', 'You do not have permission to do that'],
  ])('a hands-free call whose turn is refused with %i ends at once: the microphone is released, nothing is toasted', async (status, code, message) => {
    const missing = vi.fn();
    const stopListening = onPersonalityMissing(missing);
    const toastError = vi.spyOn(toast, 'error');
    const { result } = await connectedHandsFreeCall();
    server.turn = refusal(status, code, message);
    act(() => {
      vad.callbacks!.onSpeechStart();
      vad.callbacks!.onSpeechEnd(aSentence());
    });
    await until(() => result.current.problem !== null && result.current.status === 'disconnected');
    expect(result.current.status).toBe('disconnected');
    expect(result.current.problem).toEqual({ message, canReconnect: false, title: CALL_ENDED_TITLE });
    expect(liveTracks()).toBe(0);
    expect(vad.destroyed).toBe(1);
    expect(toastError).not.toHaveBeenCalled();
    expect(missing).toHaveBeenCalledTimes(status === 404 ? 1 : 0);
    // What the detection still reports is not sent.
    act(() => vad.callbacks!.onSpeechEnd(aSentence()));
    await flush();
    expect(requestsTo('/voice/turn')).toBe(1);
    stopListening();
  });

  it('a hands-free turn refused with 401 ends the call and has the app check the session', async () => {
    const ended = vi.fn();
    const stopListening = onSessionEnded(ended);
    const { result } = await connectedHandsFreeCall();
    server.turn = refusal(401, 'UNAUTHENTICATED', 'Authentication required');
    act(() => vad.callbacks!.onSpeechEnd(aSentence()));
    await until(() => result.current.problem !== null && result.current.status === 'disconnected');
    expect(liveTracks()).toBe(0);
    expect(result.current.problem?.message).toBe('Authentication required');
    expect(ended).toHaveBeenCalledTimes(1);
    stopListening();
  });
});

describe('the pre-loaded agent URL at Start', () => {
  /** Moves the pool's clock (Date.now) on by `ms`. */
  function clockAhead() {
    const realNow = Date.now.bind(Date);
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    return (ms: number) => void (offset += ms);
  }

  it('a URL still fresh is used: no second trip to the server', async () => {
    const advance = clockAhead();
    const { result } = openMic('agent-1');
    await until(() => agentUrlPool.ready('viewer:p1'));
    advance(AGENT_URL_FRESH_MS - 5_000);
    // The badge (read every 200 ms) still says so.
    await until(() => result.current.preloaded);
    expect(result.current.preloaded).toBe(true);
    void act(() => void result.current.start());
    await until(() => agent.sessions.length === 1);
    expect(agent.sessions[0]!.signedUrl).toBe('wss://agent.example/socket?n=1');
    expect(requestsTo('/voice/agent/session')).toBe(1);
  });

  it('a URL over 30 s old is dropped: Start asks the server again (which checks access) and connects with the new one', async () => {
    const advance = clockAhead();
    const { result } = openMic('agent-1');
    await until(() => agentUrlPool.ready('viewer:p1'));
    advance(AGENT_URL_FRESH_MS + 1_000);
    void act(() => void result.current.start());
    await until(() => agent.sessions.length === 1);
    expect(requestsTo('/voice/agent/session')).toBe(2);
    expect(agent.sessions[0]!.signedUrl).toBe('wss://agent.example/socket?n=2');
  });

  it('access lost since the URL was pre-loaded: the new request is refused (404), nothing is opened, and the app is told', async () => {
    const missing = vi.fn();
    const stopListening = onPersonalityMissing(missing);
    const advance = clockAhead();
    const { result } = openMic('agent-1');
    await until(() => agentUrlPool.ready('viewer:p1'));
    // The owner unshares (or deletes) a minute later; then the person presses Start.
    advance(60_000);
    server.session = refusal(404, 'NOT_FOUND', 'Personality not found');
    await act(() => result.current.start());
    expect(requestsTo('/voice/agent/session')).toBe(2);
    expect(agent.sessions).toHaveLength(0);
    expect(result.current.status).toBe('disconnected');
    expect(result.current.problem).toEqual({ message: 'Personality not found', canReconnect: false });
    expect(missing).toHaveBeenCalledTimes(1);
    // Nothing more is asked for a personality the server refuses.
    await flush();
    expect(requestsTo('/voice/agent/session')).toBe(2);
    stopListening();
  });
});
