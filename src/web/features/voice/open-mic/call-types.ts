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
