// One place where "this cached thing changed" is announced, so every in-memory cache (sessions,
// personality data for the chat path, retrieval indexes) can drop its entry. In a single process
// this is an EventEmitter; when several app processes share one PostgreSQL the bus is replaced by
// one backed by LISTEN/NOTIFY (setInvalidationBus at start-up), so a change made through process A
// is seen on the very next request to process B (design.md: nothing that matters lives only in one
// process's memory).
import { EventEmitter } from 'node:events';

export type InvalidationTopic = 'session' | 'personality' | 'documents' | 'rate-limits' | 'document-events';

/** The key subscribers receive when notices may have been missed (a listener reconnected): drop everything. */
export const ALL_KEYS = '*';

export const INVALIDATION_TOPICS: readonly InvalidationTopic[] = ['session', 'personality', 'documents', 'rate-limits', 'document-events'];

export interface InvalidationBus {
  /**
   * Announces that `key` of `topic` changed; local subscribers are told synchronously. Settles once
   * other processes have been sent the notice (never rejects: a failure is logged), for callers
   * that must not answer before then (a sign-out).
   */
  publish(topic: InvalidationTopic, key: string): Promise<void>;
  /**
   * Returns the unsubscribe function. The key "*" means "everything of this topic may have
   * changed" (a cross-process bus that lost its connection for a while says so when it is back).
   */
  subscribe(topic: InvalidationTopic, listener: (key: string) => void): () => void;
  /**
   * Resolves true once every notice another process had published before the call has reached
   * this process's subscribers; false when that cannot be known (the connection carrying them is
   * away or did not answer in time), so a cache must not be trusted. A cache asks this before it
   * answers from memory: "published" means the other process may already have answered its
   * client, who may be asking here next (a sign-out on A, then the old cookie on B).
   */
  caughtUp(): Promise<boolean>;
}

const CAUGHT_UP = Promise.resolve(true);

export function createLocalInvalidationBus(): InvalidationBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (topic, key) => {
      emitter.emit(topic, key);
      return Promise.resolve();
    },
    subscribe(topic, listener) {
      emitter.on(topic, listener);
      return () => emitter.off(topic, listener);
    },
    // One process: publish() told every subscriber synchronously, nothing can be in transit.
    caughtUp: () => CAUGHT_UP,
  };
}

let current: InvalidationBus = createLocalInvalidationBus();

export function invalidationBus(): InvalidationBus {
  return current;
}

export function setInvalidationBus(bus: InvalidationBus): void {
  current = bus;
}
