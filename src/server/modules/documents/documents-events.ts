// Notice that a personality's documents changed (state, progress, list), for the live stream.
// Carried by the invalidation bus: in one process an EventEmitter, with several processes on one
// PostgreSQL a LISTEN/NOTIFY channel, so a browser connected to process B hears at once about a
// job that process A ran. The stream still re-reads the database now and then, in case a notice
// was lost (design.md: nothing that matters lives in one process's memory).
import { invalidationBus, type InvalidationBus } from '../../lib/invalidation-bus';

export interface DocumentEvents {
  changed(personalityId: string): void;
  subscribe(personalityId: string, listener: () => void): () => void;
  /** Every personality's notices: the listener gets the personality's id, or "*" when any may have changed. */
  subscribeAll(listener: (personalityId: string) => void): () => void;
}

const TOPIC = 'document-events';

export function createDocumentEvents(bus: () => InvalidationBus = invalidationBus): DocumentEvents {
  return {
    changed: (personalityId) => bus().publish(TOPIC, personalityId),
    subscribe(personalityId, listener) {
      // "*": notices may have been missed while the bus reconnected; every stream re-reads.
      return bus().subscribe(TOPIC, (key) => {
        if (key === personalityId || key === '*') listener();
      });
    },
    subscribeAll: (listener) => bus().subscribe(TOPIC, listener),
  };
}
