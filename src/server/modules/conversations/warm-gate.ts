// Opening a chat starts loading the asker's retrieval indexes (conversations.service.ts starters).
// Anyone, signed in or not, can open chats faster than libraries load: each load of a large
// library holds the database for seconds (100,000 chunks: ~9 s of postings on PGlite), so they
// must not pile up. One runs at a time; of those asked for meanwhile, only the latest waits
// (earlier ones are dropped: their first question loads what it needs, as it would without this).

export function oneWarmAtATime<Scope>(warm: (scope: Scope) => Promise<void>, onError: (err: unknown) => void): (scope: Scope) => void {
  let running = false;
  let next: { scope: Scope } | undefined;
  const run = (scope: Scope) => {
    running = true;
    warm(scope)
      .catch(onError)
      .finally(() => {
        running = false;
        const waiting = next;
        next = undefined;
        if (waiting) run(waiting.scope);
      });
  };
  return (scope) => {
    if (running) next = { scope };
    else run(scope);
  };
}
