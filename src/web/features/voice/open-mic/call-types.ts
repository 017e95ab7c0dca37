// What both open-mic engines (an ElevenLabs agent, or the product's own hands-free loop) report
// to the panel (spec section 4: Voice agent session).
export type CallStatus = 'disconnected' | 'connecting' | 'connected' | 'disconnecting';
export type CallMode = 'listening' | 'speaking';

export interface CallEvents {
  onStatus(status: CallStatus): void;
  onMode(mode: CallMode): void;
  /** End of the person's turn to the first sound of the reply. */
  onResponseTime(ms: number): void;
  /** The call ended without the person hanging up (a dropped connection, a failure mid-call). */
  onDropped(message: string): void;
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
