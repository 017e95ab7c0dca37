// In-process notice that a personality's documents changed (state, progress, list), for the live
// stream. Streams also re-read the database every few seconds, so a job run by another process
// shows up too (design.md: nothing that matters lives in one process's memory).
import { EventEmitter } from 'node:events';

export interface DocumentEvents {
  changed(personalityId: string): void;
  subscribe(personalityId: string, listener: () => void): () => void;
}

export function createDocumentEvents(): DocumentEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    changed: (personalityId) => void emitter.emit(personalityId),
    subscribe(personalityId, listener) {
      emitter.on(personalityId, listener);
      return () => emitter.off(personalityId, listener);
    },
  };
}
