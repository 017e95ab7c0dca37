// The System Monitoring card's body: daily voice-credit usage with its level message, and the
// recent rate-limit windows (endpoint, count, window start, user id prefix, address).
import { formatDateTime } from '../../../lib/date-format';
import { TriangleAlert } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { limits } from '../../../../shared/limits';
import { Progress } from '../../../components/ui/progress';
import { Skeleton } from '../../../components/ui/skeleton';
import { useRateLimitRows, useVoiceUsage } from '../api/get-monitoring';

/** Spec section 9: a warning above 80 percent of the daily limit, a block at 100. */
const WARNING_SHARE = 0.8;
/** Spec section 9: the warning icon from 80 requests in one window. */
export const RATE_LIMIT_WARNING_COUNT = limits.rateLimitWarningCount;

export function usageLevel(used: number, limit: number): 'ok' | 'warning' | 'exhausted' {
  if (limit > 0 && used >= limit) return 'exhausted';
  if (limit > 0 && used > limit * WARNING_SHARE) return 'warning';
  return 'ok';
}

function VoiceCreditUsage() {
  const usage = useVoiceUsage();
  if (usage.isPending) return <Skeleton className="h-12 w-full" />;
  if (usage.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {messages.voice.loadUsageFailed}
      </p>
    );
  }
  const { charactersUsed, dailyLimit, date } = usage.data;
  const level = usageLevel(charactersUsed, dailyLimit);
  const percent = dailyLimit > 0 ? Math.min(100, Math.round((charactersUsed / dailyLimit) * 100)) : 0;
  return (
    <div className="grid gap-1.5" data-testid="voice-credit-usage" data-level={level}>
      <div className="flex items-baseline justify-between gap-2">
        <p className="text-sm font-medium">Voice credits today</p>
        <p className="text-xs text-muted-foreground">{date} (UTC)</p>
      </div>
      <p className="font-display text-2xl font-semibold tabular-nums">
        {charactersUsed.toLocaleString('en-US')}
        <span className="text-sm font-normal text-muted-foreground"> / {dailyLimit.toLocaleString('en-US')}</span>
      </p>
      <Progress
        value={percent}
        aria-label="Voice credits used today"
        aria-valuetext={`${percent}% of the daily limit`}
        indicatorClassName={level === 'ok' ? undefined : level === 'warning' ? 'bg-amber-500 bg-none' : 'bg-destructive bg-none'}
      />
      {level !== 'ok' && (
        <p role="status" className={level === 'warning' ? 'text-xs text-amber-700 dark:text-amber-400' : 'text-xs text-destructive'}>
          {level === 'warning' ? messages.voice.usageWarning : messages.voice.creditsExhausted}
        </p>
      )}
    </div>
  );
}

function RateLimitList() {
  const limits = useRateLimitRows();
  if (limits.isPending) return <Skeleton className="h-16 w-full" />;
  if (limits.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {messages.voice.loadRateLimitsFailed}
      </p>
    );
  }
  const rows = limits.data.rows;
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">{messages.voice.noRateLimitActivity}</p>;
  return (
    // Scrolls on its own: focusable, so it can be scrolled with the keyboard, and named.
    <div role="region" aria-label="Recent rate limits" tabIndex={0} className="max-h-64 overflow-auto rounded-md border outline-none focus-visible:ring-2 focus-visible:ring-ring">
      <table className="w-full text-left text-xs" aria-label="Recent rate limits">
        <thead className="sticky top-0 bg-muted text-muted-foreground">
          <tr>
            <th scope="col" className="px-2 py-1.5 font-medium">Endpoint</th>
            <th scope="col" className="px-2 py-1.5 font-medium">Requests</th>
            <th scope="col" className="px-2 py-1.5 font-medium">Window start</th>
            <th scope="col" className="px-2 py-1.5 font-medium">User</th>
            <th scope="col" className="px-2 py-1.5 font-medium">IP address</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const high = row.requestCount >= RATE_LIMIT_WARNING_COUNT;
            return (
              <tr key={`${row.endpoint}|${row.windowStart}|${row.userId ?? ''}|${row.ipAddress ?? ''}`} className="border-t">
                <td className="px-2 py-1.5 font-mono break-all">{row.endpoint}</td>
                <td className="px-2 py-1.5 tabular-nums">
                  <span className="inline-flex items-center gap-1">
                    {row.requestCount}
                    {high && <TriangleAlert className="size-3.5 text-amber-600" role="img" aria-label="High request count" />}
                  </span>
                </td>
                <td className="px-2 py-1.5 whitespace-nowrap">{formatDateTime(row.windowStart)}</td>
                <td className="px-2 py-1.5 font-mono">{row.userId ?? '–'}</td>
                <td className="px-2 py-1.5 font-mono">{row.ipAddress ?? '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function SystemMonitoring() {
  return (
    <div className="grid gap-4">
      <VoiceCreditUsage />
      <div className="grid gap-1.5">
        <p className="text-sm font-medium">API rate limits (last 24 hours)</p>
        <RateLimitList />
      </div>
    </div>
  );
}
