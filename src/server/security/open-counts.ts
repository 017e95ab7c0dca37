// Things held open at once per client (a user, an address) in this process: document event
// streams, upload bodies being read. Per process on purpose: what they hold (sockets, buffers)
// is this process's, and a count that outlived a crashed process would lock people out.

/** Counts per key; a hold is refused when any of its keys is at the cap. */
export function createOpenCounts() {
  const open = new Map<string, number>();
  return {
    /** Holds one under each key, or null (nothing held) when one of them is full. The release is idempotent. */
    hold(keys: string[], max: number): (() => void) | null {
      if (keys.some((k) => (open.get(k) ?? 0) >= max)) return null;
      for (const k of keys) open.set(k, (open.get(k) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const k of keys) {
          const n = (open.get(k) ?? 1) - 1;
          if (n <= 0) open.delete(k);
          else open.set(k, n);
        }
      };
    },
  };
}
