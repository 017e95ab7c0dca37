// Ages as the spec shows them ("... ago"), measured against the browser's clock.
import { formatDistance } from 'date-fns';
import { useCallback } from 'react';
import { useMinuteClock } from './minute-clock';

/**
 * "5 minutes ago". A time ahead of `now` (the browser's clock runs behind the server's) reads as
 * "less than a minute ago": the distance is unsigned, so it would otherwise pass for minutes old.
 */
export function formatAge(iso: string, now: number): string {
  const at = new Date(iso).getTime();
  return `${formatDistance(Math.min(at, now), now)} ago`;
}

/** `ago(iso)`, kept current while the page stays open (see useMinuteClock). */
export function useAgo(): (iso: string) => string {
  const now = useMinuteClock();
  return useCallback((iso: string) => formatAge(iso, now), [now]);
}
