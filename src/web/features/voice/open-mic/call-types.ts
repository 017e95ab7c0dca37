// What both open-mic engines (an ElevenLabs agent, or the product's own hands-free loop) report
// to the panel (spec section 4: Voice agent session).
import { ApiError } from '../../../lib/api-client';

export type CallStatus = 'disconnected' | 'connecting' | 'connected' | 'disconnecting';
export type CallMode = 'listening' | 'speaking';

export interface CallEvents {
  onStatus(status: CallStatus): void;
  onMode(mode: CallMode): void;
  /** End of the person's turn to the first sound of the reply. */
  onResponseTime(ms: number): void;
  /** The call ended without the person hanging up (a dropped connection, a failure mid-call). */
  onDropped(message: string): void;
  /**
   * The server refused the call's personality or session (see accessLost: 404, 401, 403): it was
   * deleted, unshared or made private, or the person was signed out. The call ends at once (the
   * hands-free loop has already stopped; an agent call is closed by the handler): there is nothing
   * to reconnect to.
   */
  onAccessLost(error: ApiError): void;
}

/**
 * A refusal that no later request of the call can get past: the personality is not (or no longer)
 * visible to this person (404), the session ended (401), or the request is not allowed (403). Any
 * other failure (no speech, a provider's error, a rate limit) is one turn's or one line's.
 */
export function accessLost(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404);
}

export interface ActiveCall {
  end(): Promise<void>;
  setVolume(volume: number): void;
}

/**
 * The person ended the call (End Call, or leaving the tab) while it was still connecting: the start
 * is given up and what it had opened is released. Not a failure: there is nothing to tell them.
 */
export class CallEndedWhileConnecting extends Error {
  constructor() {
    super('The call was ended while it was connecting.');
    this.name = 'CallEndedWhileConnecting';
  }
}
