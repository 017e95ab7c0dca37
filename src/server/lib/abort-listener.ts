// A promise's settle functions tied to an abort signal: `onAbort` runs if the signal aborts before
// the promise settles, and settling stops listening (a long-lived signal, such as a server's
// stop signal, would otherwise keep one listener per request it ever saw).

export interface Settle<T> {
  resolve(value: T): void;
  reject(err: unknown): void;
}

export function settleOrAbort<T>(signal: AbortSignal | undefined, settle: Settle<T>, onAbort: () => void): Settle<T> {
  if (!signal) return settle;
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    resolve(value) {
      signal.removeEventListener('abort', onAbort);
      settle.resolve(value);
    },
    reject(err) {
      signal.removeEventListener('abort', onAbort);
      settle.reject(err);
    },
  };
}
