// System Monitoring figures: today's voice credits (UTC day) and the rate-limit windows of the
// last 24 hours. Both refresh every 30 s while the dashboard is open (spec section 9).
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const MONITORING_REFRESH_MS = 30_000;

export function useVoiceUsage() {
  return useQuery({
    queryKey: adminKeys.voiceUsage(),
    queryFn: () => unwrap(api.api.admin.monitoring['voice-usage'].$get()),
    refetchInterval: MONITORING_REFRESH_MS,
  });
}

export function useRateLimitRows() {
  return useQuery({
    queryKey: adminKeys.rateLimits(),
    queryFn: () => unwrap(api.api.admin.monitoring['rate-limits'].$get()),
    refetchInterval: MONITORING_REFRESH_MS,
  });
}
