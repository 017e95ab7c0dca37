// An open-mic call with an ElevenLabs agent through the official browser client: it opens the
// agent's websocket with the signed URL, streams the microphone and plays the agent. Each finished
// line (the person's transcript, the agent's reply) is handed to `onLine` for the log and the
// saved conversation.
import type { VoiceConversation } from '@elevenlabs/client';
import { messages } from '../../../../shared/messages';
import { CallEndedWhileConnecting, type ActiveCall, type CallEvents, type CallStatus } from './call-types';
import { VOICE_ASSET_BASE } from './silero-vad';
import { browserHints, microphoneErrorMessage, type BrowserHints } from '../audio/microphone-errors';

export interface AgentCallOptions {
  signedUrl: string;
  volume: number;
  events: CallEvents;
  onLine(role: 'user' | 'assistant', text: string): void;
  /**
   * Aborted when the person ends the call (or leaves) while it is connecting: the session is closed
   * as soon as it has opened (the client offers no way to stop it opening), and the start rejects
   * with CallEndedWhileConnecting.
   */
  signal?: AbortSignal;
  now?: () => number;
}

/** getUserMedia's failures (the official client opens the microphone itself when it starts). */
const MICROPHONE_ERRORS = new Set([
  'NotAllowedError',
  'PermissionDeniedError',
  'SecurityError',
  'NotFoundError',
  'DevicesNotFoundError',
  'NotReadableError',
  'TrackStartError',
  'OverconstrainedError',
  'ConstraintNotSatisfiedError',
]);

/** Turns a failure to connect into the spec's Voice session messages, or its Microphone ones. */
export function agentStartError(err: unknown, hints: BrowserHints = browserHints()): string {
  const name = (err as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && MICROPHONE_ERRORS.has(name)) return microphoneErrorMessage(err, hints);
  const closeCode = (err as { closeCode?: number } | null)?.closeCode;
  if (closeCode === 1006) return messages.openMic.agentInvalid;
  if (err instanceof TypeError || (err instanceof Error && /network|failed to fetch/i.test(err.message))) return messages.openMic.networkError;
  if (err instanceof Error && err.name === 'SessionConnectionError') return messages.openMic.socketFailed(err.message);
  return err instanceof Error ? err.message : String(err);
}

export async function startAgentCall(options: AgentCallOptions): Promise<ActiveCall> {
  const { events } = options;
  const now = options.now ?? (() => performance.now());
  const { Conversation } = await import('@elevenlabs/client');
  if (options.signal?.aborted) throw new CallEndedWhileConnecting();
  let connected = false;
  let hungUp = false;
  let userFinishedAt: number | null = null;

  events.onStatus('connecting');
  let conversation: VoiceConversation;
  try {
    conversation = (await Conversation.startSession({
      signedUrl: options.signedUrl,
      connectionType: 'websocket',
      // No wake lock prompt, no extra delay: the call is started by a click on a desktop or phone.
      useWakeLock: false,
      // The worklets from the app (the CSP allows scripts from 'self' only, not blob: URLs).
      workletPaths: { rawAudioProcessor: `${VOICE_ASSET_BASE}rawAudioProcessor.js`, audioConcatProcessor: `${VOICE_ASSET_BASE}audioConcatProcessor.js` },
      onConnect: () => {
        connected = true;
      },
      onStatusChange: ({ status }) => events.onStatus(status as CallStatus),
      onModeChange: ({ mode }) => {
        events.onMode(mode);
        if (mode === 'speaking' && userFinishedAt !== null) {
          events.onResponseTime(now() - userFinishedAt);
          userFinishedAt = null;
        }
      },
      onMessage: ({ source, message }) => {
        if (!message?.trim()) return;
        if (source === 'user') userFinishedAt = now();
        options.onLine(source === 'user' ? 'user' : 'assistant', message);
      },
      onDisconnect: (details) => {
        if (hungUp || details.reason === 'user') return;
        // The agent ending the call is a normal end; anything else dropped it.
        if (details.reason === 'agent') return;
        events.onDropped(connected ? messages.openMic.dropped : details.closeCode === 1006 ? messages.openMic.agentInvalid : details.message);
      },
    })) as VoiceConversation;
  } catch (err) {
    events.onStatus('disconnected');
    if (options.signal?.aborted) throw new CallEndedWhileConnecting();
    throw new Error(agentStartError(err));
  }
  if (options.signal?.aborted) {
    hungUp = true;
    await conversation.endSession().catch(() => {});
    throw new CallEndedWhileConnecting();
  }
  conversation.setVolume({ volume: options.volume });
  return {
    async end() {
      hungUp = true;
      await conversation.endSession();
    },
    setVolume(volume) {
      conversation.setVolume({ volume });
    },
  };
}
