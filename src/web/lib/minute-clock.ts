// One clock for every "... ago" on the page: the current time, refreshed each minute and when the
// tab becomes visible again (a hidden tab's timers are throttled or frozen). One interval however
// many rows show an age; it runs only while something shows one.
import { useSyncExternalStore } from 'react';

const TICK_MS = 60_000;

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function refresh() {
  now = Date.now();
  for (const listener of listeners) listener();
}

function onVisibilityChange() {
  if (document.visibilityState === 'visible') refresh();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) {
    timer = setInterval(refresh, TICK_MS);
    document.addEventListener('visibilitychange', onVisibilityChange);
    // The clock stood still while nothing showed an age; the first reader may have seen it stale.
    refresh();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
      document.removeEventListener('visibilitychange', onVisibilityChange);
    }
  };
}

const snapshot = () => now;

/** The current time (ms), re-rendering the caller each minute and on returning to the tab. */
export const useMinuteClock = (): number => useSyncExternalStore(subscribe, snapshot);
