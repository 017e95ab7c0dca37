// Work that must finish before the database closes: a reply being saved when the server is asked
// to stop. The HTTP server's close waits for connections, not for what their handlers still do
// after the client left (a stopped reply is checked and saved then), so shutdown waits here too.
// And work that would hold shutdown up (a reply still streaming, a model that fell silent) is
// told to stop: `stopping` aborts, and it ends as a person's Stop would, keeping what was said.

export interface InFlight {
  /** Marks one piece of work begun; call the returned function when it has ended. */
  begin(): () => void;
  /** Aborted by stopAll(): work under way stops early and saves what it has. */
  readonly stopping: AbortSignal;
  /** Asks all work under way to stop (shutdown, after a grace period). */
  stopAll(): void;
  /** Resolves when no work is in flight, or after `timeoutMs` (true when everything finished). */
  drain(timeoutMs: number): Promise<boolean>;
  readonly size: number;
}

export function createInFlight(): InFlight {
  let count = 0;
  let waiters: (() => void)[] = [];
  const stopper = new AbortController();
  return {
    stopping: stopper.signal,
    stopAll() {
      stopper.abort(new Error('the server is stopping'));
    },
    begin() {
      count++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        count--;
        if (count === 0) {
          const w = waiters;
          waiters = [];
          for (const resolve of w) resolve();
        }
      };
    },
    async drain(timeoutMs) {
      if (count === 0) return true;
      let timer: NodeJS.Timeout | undefined;
      const finished = new Promise<boolean>((resolve) => waiters.push(() => resolve(true)));
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const result = await Promise.race([finished, late]);
      clearTimeout(timer);
      return result;
    },
    get size() {
      return count;
    },
  };
}
