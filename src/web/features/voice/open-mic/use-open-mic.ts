// The state of the Open Mic Chat tab: which engine (the personality's ElevenLabs agent, or the
// product's own hands-free loop), the call's status and mode, its connect time and average
// response time, whether it started from a pre-loaded connection, and what went wrong.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../../shared/messages';
import { ApiError } from '../../../lib/api-client';
import type { SendOptions } from '../../conversation/hooks/use-chat-session';
import { useVoiceCapabilities, warmVoice } from '../api/voice-api';
import { startVoiceTurn, type TurnContext } from '../api/voice-turn-api';
import { browserHints, microphoneErrorMessage, microphoneSupported } from '../audio/microphone-errors';
import { useSpeechPlayer } from '../hooks/use-speech-player';
import { startAgentCall } from './agent-call';
import { agentUrlPool } from './agent-url-pool';
import { accessLost, CallEndedWhileConnecting, type ActiveCall, type CallEvents, type CallMode, type CallStatus } from './call-types';
import { HandsFreeLoop } from './hands-free-loop';
import { saveAgentLine, requestSignedUrl } from './open-mic-api';
import { createSileroVad, preloadVad } from './silero-vad';

export interface OpenMicOptions {
  personality: { id: string; agentId?: string | null };
  /** Who is asking (signed-in id or anonymous): pooled URLs are theirs only. */
  viewerKey: string;
  endOfTurnMs: number;
  send(text: string, options: SendOptions): Promise<boolean>;
  stopReply(): void;
  /** The conversation's context a turn carries with its audio (saved conversation, or an anonymous visitor's history). */
  chatContext(): TurnContext;
  /** Returns the line's id in the log, for withholdLine. */
  appendLine(sender: 'user' | 'personality', content: string): string | void;
  /** The server withheld a line (severe content): `notice` is shown in its place. */
  withholdLine?(id: string, notice: string): void;
  adoptConversation(id: string): void;
  currentConversationId(): string | null;
  /** A line of an agent call was saved (the saved-conversation list may change). */
  onLineSaved?(): void;
}

export interface CallProblem {
  message: string;
  /** A dropped call offers to reconnect; a refusal (no agent id, no microphone) does not. */
  canReconnect: boolean;
  /** The alert's title when it is neither "Call dropped" nor "Voice chat could not start". */
  title?: string;
}

/** A call the server stopped taking (the personality went away, or the session ended). */
export const CALL_ENDED_TITLE = 'Call ended';

/** Playback gain relative to the listener's volume (spec section 9). */
const PLAYBACK_GAIN = 0.8;
/** The server's default VOICE_MAX_RECORDING_SECONDS, until its capabilities say otherwise. */
const DEFAULT_MAX_TURN_SECONDS = 60;

async function openMicrophone(): Promise<MediaStream> {
  if (!microphoneSupported()) throw new Error(messages.voice.micUnsupported);
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
  } catch (err) {
    throw new Error(microphoneErrorMessage(err, browserHints()));
  }
}

export function useOpenMic(options: OpenMicOptions) {
  const { personality, viewerKey } = options;
  const agentId = personality.agentId?.trim() || null;
  const poolKey = `${viewerKey}:${personality.id}`;
  const [status, setStatus] = useState<CallStatus>('disconnected');
  const [mode, setMode] = useState<CallMode>('listening');
  const [connectMs, setConnectMs] = useState<number | null>(null);
  const [responseTimes, setResponseTimes] = useState<number[]>([]);
  const [preloadedCall, setPreloadedCall] = useState(false);
  const [ready, setReady] = useState(false);
  const [problem, setProblem] = useState<CallProblem | null>(null);
  const call = useRef<ActiveCall | null>(null);
  // The call still connecting: End Call, leaving the tab or a new Start gives it up.
  const starting = useRef<AbortController | null>(null);
  // Bumped by each Start and End Call: a call's events count only while it is the current one (an
  // ended call still tearing down, or given up while connecting, must not show its state).
  const callGeneration = useRef(0);
  // Bumped when a call takes the pre-loaded voice detection: an older preload no longer says "ready".
  const preloadToken = useRef(0);
  // The running agent call's token: its lines are counted as voice credits under it.
  const agentCallToken = useRef<string | undefined>(undefined);
  const loop = useRef<HandsFreeLoop | null>(null);
  const latest = useRef(options);
  latest.current = options;
  const lines = useRef<Promise<void>>(Promise.resolve());
  // The longest turn the server transcribes: the hands-free loop cuts longer speech into turns.
  const maxTurnSeconds = useVoiceCapabilities().data?.limits.maxRecordingSeconds ?? DEFAULT_MAX_TURN_SECONDS;

  // A call has no Replay: nothing is kept of its replies (an hour's call would keep hundreds of MB).
  const speech = useSpeechPlayer(personality.id, { keepForReplay: false, onPlaybackStart: (replyId) => loop.current?.playbackStarted(replyId) });
  useEffect(() => loop.current?.setSpeaking(speech.active), [speech.active]);
  useEffect(() => call.current?.setVolume(speech.muted ? 0 : speech.volume * PLAYBACK_GAIN), [speech.volume, speech.muted]);

  /**
   * Gets the next call ready: the agent's signed URL, or a VAD worker with its code, model and
   * WebAssembly loaded. Each call takes (and, ending, terminates) the one readied before it, so
   * this runs again after every call; `ready` ("Pre-loaded") is true only once it has loaded.
   */
  const readyNextCall = useCallback(() => {
    if (agentId) return agentUrlPool.preload(poolKey, personality.id);
    const mine = ++preloadToken.current;
    setReady(false);
    preloadVad().then(
      () => mine === preloadToken.current && setReady(true),
      () => mine === preloadToken.current && setReady(false),
    );
  }, [agentId, poolKey, personality.id]);

  // Get the connection ready while the person reads the screen.
  useEffect(() => {
    readyNextCall();
    if (!agentId) return () => void (preloadToken.current += 1);
    let live = true;
    const check = setInterval(() => live && setReady(agentUrlPool.ready(poolKey)), 200);
    return () => {
      live = false;
      clearInterval(check);
    };
  }, [agentId, poolKey, readyNextCall]);

  /** What the call started as `generation` reports, heard only while it is the current call. */
  const eventsOf = (generation: number): CallEvents => {
    const current = () => generation === callGeneration.current;
    return {
      onStatus: (next) => current() && setStatus(next),
      onMode: (next) => current() && setMode(next),
      onResponseTime: (ms) => current() && setResponseTimes((all) => [...all, ms]),
      onDropped: (message) => {
        if (!current()) return;
        speech.player.setCallContext(null);
        call.current = null;
        loop.current = null;
        setStatus('disconnected');
        setProblem({ message: message || messages.openMic.dropped, canReconnect: true });
        readyNextCall();
      },
      onAccessLost: (error) => {
        if (!current()) return;
        void endCall({ message: error.message, canReconnect: false, title: CALL_ENDED_TITLE });
      },
    };
  };

  /**
   * An agent call's lines: each into the log now, then (in order) into the saved conversation. A
   * line the server refuses for the personality or the session (404, 401, 403) ends the call at
   * once (`events.onAccessLost`); its later lines are not sent (they would be refused too).
   */
  const agentLines = (events: CallEvents) => {
    let refused = false;
    return (role: 'user' | 'assistant', text: string) => {
      const opts = latest.current;
      const lineId = opts.appendLine(role === 'user' ? 'user' : 'personality', text);
      lines.current = lines.current.then(async () => {
        if (refused) return;
        try {
          const saved = await saveAgentLine(personality.id, { conversationId: opts.currentConversationId(), role, content: text, callToken: agentCallToken.current });
          // Heard already, but not kept: the log shows the server's notice instead, as the saved conversation does.
          if (saved.withheld && saved.notice && lineId) latest.current.withholdLine?.(lineId, saved.notice);
          if (saved.conversationId) latest.current.adoptConversation(saved.conversationId);
          if (saved.saved) latest.current.onLineSaved?.();
          if (saved.creditsExhausted) {
            toast.error(messages.voice.creditsExhausted);
            void hangUp();
          }
        } catch (err) {
          if (accessLost(err)) {
            refused = true;
            events.onAccessLost(err);
          } else toast.error(messages.openMic.lineNotSaved);
        }
      });
    };
  };

  const start = async () => {
    if (call.current || starting.current) return;
    const generation = ++callGeneration.current;
    const cancel = new AbortController();
    starting.current = cancel;
    const events = eventsOf(generation);
    setProblem(null);
    setResponseTimes([]);
    setConnectMs(null);
    const startedAt = performance.now();
    const wasReady = ready;
    try {
      if (agentId) {
        setStatus('connecting');
        // A kept URL only while fresh: an older one is dropped and the server asked (and checks) again.
        const pooled = await agentUrlPool.take(poolKey);
        setPreloadedCall(Boolean(pooled) && wasReady);
        const { signedUrl, callToken } = pooled ?? (await requestSignedUrl(personality.id));
        if (cancel.signal.aborted) throw new CallEndedWhileConnecting();
        agentCallToken.current = callToken;
        const active = await startAgentCall({ signedUrl, volume: speech.muted ? 0 : speech.volume * PLAYBACK_GAIN, events, onLine: agentLines(events), signal: cancel.signal });
        if (cancel.signal.aborted) {
          await active.end().catch(() => {});
          throw new CallEndedWhileConnecting();
        }
        call.current = active;
      } else {
        setPreloadedCall(wasReady);
        // This call takes the pre-loaded voice detection: the next call's is loaded after it.
        preloadToken.current += 1;
        setReady(false);
        // The server readies the first turn while the microphone and voice detection start.
        void warmVoice(personality.id);
        const opts = latest.current;
        // In the click itself, before anything is awaited: browsers only let audio start in a gesture.
        const audioContext = typeof AudioContext === 'undefined' ? undefined : new AudioContext();
        void audioContext?.resume().catch(() => {});
        // The reply plays through the call's running context: no new element to start per sentence.
        speech.player.setCallContext(audioContext ?? null);
        const hands = new HandsFreeLoop({
          endOfTurnMs: opts.endOfTurnMs,
          maxTurnSeconds,
          getStream: openMicrophone,
          createVad: createSileroVad,
          audioContext,
          startTurn: (wav, signal, ids) => startVoiceTurn(personality.id, wav, { ...latest.current.chatContext(), ...ids }, signal),
          send: (text, o) => latest.current.send(text, o),
          stopReply: () => latest.current.stopReply(),
          player: speech.player,
          events,
          onTurnError: (message, kind) => (kind === 'warning' ? toast.warning(message) : toast.error(message)),
        });
        loop.current = hands;
        // Ended while connecting: the loop gives its start up and releases what it opened.
        cancel.signal.addEventListener('abort', () => void hands.end(), { once: true });
        const active = await hands.start();
        if (cancel.signal.aborted) {
          await active.end();
          throw new CallEndedWhileConnecting();
        }
        call.current = active;
      }
      setConnectMs(performance.now() - startedAt);
    } catch (err) {
      // Ended by the person while connecting: End Call (or leaving) has settled the state already.
      if (cancel.signal.aborted || err instanceof CallEndedWhileConnecting) return;
      speech.player.setCallContext(null);
      call.current = null;
      loop.current = null;
      setStatus('disconnected');
      setProblem({ message: err instanceof ApiError || err instanceof Error ? err.message : String(err), canReconnect: false });
      // Refused for the personality or the session: another connection would be refused too.
      if (!accessLost(err)) readyNextCall();
    } finally {
      if (starting.current === cancel) starting.current = null;
    }
  };

  /**
   * Ends the call (End Call; or the server refusing it, with `problem`, which is shown at once). A
   * call ended for a problem does not ready the next one: the server refused this personality.
   */
  const endCall = useCallback(async (problem?: CallProblem) => {
    // From here the ended call's own reports no longer count.
    const generation = ++callGeneration.current;
    const active = call.current;
    const ending = loop.current;
    call.current = null;
    // Still connecting: the start is given up.
    starting.current?.abort();
    starting.current = null;
    if (problem) setProblem(problem);
    if (active) {
      setStatus('disconnecting');
      await active.end().catch(() => {});
    }
    // The loop hears the player (speaking, response times) until it has ended.
    if (loop.current === ending) loop.current = null;
    // Started again meanwhile: the new call's state is its own.
    if (generation !== callGeneration.current) return;
    speech.player.setCallContext(null);
    setStatus('disconnected');
    setMode('listening');
    if (!problem) readyNextCall();
  }, [readyNextCall, speech.player]);

  const hangUp = useCallback(() => endCall(), [endCall]);

  // Leaving the tab or the conversation hangs up, also a call still connecting.
  useEffect(
    () => () => {
      callGeneration.current += 1;
      starting.current?.abort();
      void call.current?.end().catch(() => {});
    },
    [],
  );

  const averageResponseMs = responseTimes.length ? responseTimes.reduce((a, b) => a + b, 0) / responseTimes.length : null;
  return {
    engine: agentId ? ('agent' as const) : ('hands-free' as const),
    status,
    mode,
    connectMs,
    averageResponseMs,
    responses: responseTimes.length,
    responseTimes,
    // Between calls: whether the next one is ready; during a call: whether it started from a pre-loaded connection.
    preloaded: status === 'disconnected' ? ready : preloadedCall,
    problem,
    speech,
    start,
    hangUp,
  };
}
