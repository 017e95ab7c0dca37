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
import type { ActiveCall, CallEvents, CallMode, CallStatus } from './call-types';
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
  appendLine(sender: 'user' | 'personality', content: string): void;
  adoptConversation(id: string): void;
  currentConversationId(): string | null;
  /** A line of an agent call was saved (the saved-conversation list may change). */
  onLineSaved?(): void;
}

export interface CallProblem {
  message: string;
  /** A dropped call offers to reconnect; a refusal (no agent id, no microphone) does not. */
  canReconnect: boolean;
}

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

  // Get the connection ready while the person reads the screen: the agent's signed URL, or the
  // VAD's code, model and WebAssembly.
  useEffect(() => {
    let live = true;
    if (agentId) {
      agentUrlPool.preload(poolKey, personality.id);
      const check = setInterval(() => live && setReady(agentUrlPool.ready(poolKey)), 200);
      return () => {
        live = false;
        clearInterval(check);
      };
    }
    preloadVad().then(
      () => live && setReady(true),
      () => live && setReady(false),
    );
    return () => {
      live = false;
    };
  }, [agentId, poolKey, personality.id]);

  const events: CallEvents = {
    onStatus: setStatus,
    onMode: setMode,
    onResponseTime: (ms) => setResponseTimes((all) => [...all, ms]),
    onDropped: (message) => {
      speech.player.setCallContext(null);
      call.current = null;
      loop.current = null;
      setStatus('disconnected');
      setProblem({ message: message || messages.openMic.dropped, canReconnect: true });
    },
  };

  /** An agent call's line: into the log now, then (in order) into the saved conversation. */
  const onAgentLine = (role: 'user' | 'assistant', text: string) => {
    const opts = latest.current;
    opts.appendLine(role === 'user' ? 'user' : 'personality', text);
    lines.current = lines.current.then(async () => {
      try {
        const saved = await saveAgentLine(personality.id, { conversationId: opts.currentConversationId(), role, content: text, callToken: agentCallToken.current });
        if (saved.conversationId) latest.current.adoptConversation(saved.conversationId);
        if (saved.saved) latest.current.onLineSaved?.();
        if (saved.creditsExhausted) {
          toast.error(messages.voice.creditsExhausted);
          void hangUp();
        }
      } catch {
        toast.error(messages.openMic.lineNotSaved);
      }
    });
  };

  const start = async () => {
    if (call.current || status === 'connecting') return;
    setProblem(null);
    setResponseTimes([]);
    setConnectMs(null);
    const startedAt = performance.now();
    const wasReady = ready;
    try {
      if (agentId) {
        setStatus('connecting');
        const pooled = await agentUrlPool.take(poolKey);
        setPreloadedCall(Boolean(pooled) && wasReady);
        const { signedUrl, callToken } = pooled ?? (await requestSignedUrl(personality.id));
        agentCallToken.current = callToken;
        call.current = await startAgentCall({ signedUrl, volume: speech.muted ? 0 : speech.volume * PLAYBACK_GAIN, events, onLine: onAgentLine });
      } else {
        setPreloadedCall(wasReady);
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
        call.current = await hands.start();
      }
      setConnectMs(performance.now() - startedAt);
    } catch (err) {
      speech.player.setCallContext(null);
      call.current = null;
      loop.current = null;
      setStatus('disconnected');
      setProblem({ message: err instanceof ApiError || err instanceof Error ? err.message : String(err), canReconnect: false });
    }
  };

  const hangUp = useCallback(async () => {
    const active = call.current;
    call.current = null;
    loop.current = null;
    if (active) await active.end().catch(() => {});
    speech.player.setCallContext(null);
    setStatus('disconnected');
    setMode('listening');
    // Ready again for the next call.
    if (agentId) agentUrlPool.preload(poolKey, personality.id);
  }, [agentId, poolKey, personality.id, speech.player]);

  // Leaving the tab or the conversation hangs up.
  useEffect(() => () => void call.current?.end().catch(() => {}), []);

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
