import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { format } from 'date-fns';
import { renderApp } from '../../../test-support/render-app';
import { stubAdminApi } from '../test-support/admin-api-stub';
import { SummaryCards } from './summary-cards';
import { usageLevel } from './system-monitoring';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const monitoringCard = () => within(screen.getByRole('region', { name: 'System Monitoring' }));
const usage = (charactersUsed: number) => ({ date: '2026-11-25', charactersUsed, dailyLimit: 50_000 });

describe('System Monitoring card', () => {
  it("shows today's voice credits against the daily limit, with no level message under 80%", async () => {
    stubAdminApi({ voiceUsage: usage(12_345) });
    renderApp(<SummaryCards />);
    const card = monitoringCard();
    expect(await card.findByText('12,345')).toBeInTheDocument();
    expect(card.getByText('/ 50,000', { exact: false })).toBeInTheDocument();
    expect(card.getByText('2026-11-25 (UTC)')).toBeInTheDocument();
    expect(card.getByRole('progressbar', { name: 'Voice credits used today' })).toHaveAttribute('aria-valuetext', '25% of the daily limit');
    expect(card.queryByText('Approaching daily limit. Monitor usage carefully.')).not.toBeInTheDocument();
    expect(card.queryByText('Daily limit reached. New requests will be blocked until tomorrow.')).not.toBeInTheDocument();
  });

  it('warns above 80% of the daily limit', async () => {
    stubAdminApi({ voiceUsage: usage(40_001) });
    renderApp(<SummaryCards />);
    expect(await monitoringCard().findByText('Approaching daily limit. Monitor usage carefully.')).toBeInTheDocument();
  });

  it('says the limit is reached at 100%', async () => {
    stubAdminApi({ voiceUsage: usage(50_000) });
    renderApp(<SummaryCards />);
    const card = monitoringCard();
    expect(await card.findByText('Daily limit reached. New requests will be blocked until tomorrow.')).toBeInTheDocument();
    expect(card.queryByText('Approaching daily limit. Monitor usage carefully.')).not.toBeInTheDocument();
  });

  it('levels: exactly 80% is still fine, above is a warning, at or over the limit is exhausted', () => {
    expect(usageLevel(40_000, 50_000)).toBe('ok');
    expect(usageLevel(40_001, 50_000)).toBe('warning');
    expect(usageLevel(50_000, 50_000)).toBe('exhausted');
    expect(usageLevel(70_000, 50_000)).toBe('exhausted');
  });

  it('lists rate-limit windows: endpoint, count, window start as "MMM d, yyyy HH:mm", user prefix, address; a warning icon from 80', async () => {
    const windowStart = '2026-11-25T09:05:00.000Z';
    stubAdminApi({
      rateLimits: [
        { endpoint: 'chat', requestCount: 80, windowStart, userId: '1a2b3c4d', ipAddress: '203.0.113.9' },
        { endpoint: 'voice-speech', requestCount: 79, windowStart, userId: null, ipAddress: '198.51.100.4' },
      ],
    });
    renderApp(<SummaryCards />);
    const table = within(await monitoringCard().findByRole('table', { name: 'Recent rate limits' }));
    const rows = table.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const [busy, quiet] = rows.map((r) => within(r));
    expect(busy!.getByText('chat')).toBeInTheDocument();
    expect(busy!.getByText('1a2b3c4d')).toBeInTheDocument();
    expect(busy!.getByText('203.0.113.9')).toBeInTheDocument();
    expect(busy!.getByText(format(new Date(windowStart), 'MMM d, yyyy HH:mm'))).toBeInTheDocument();
    expect(busy!.getByRole('img', { name: 'High request count' })).toBeInTheDocument();
    expect(quiet!.getByText('79')).toBeInTheDocument();
    expect(quiet!.queryByRole('img', { name: 'High request count' })).not.toBeInTheDocument();
  });

  it('says when either figure fails to load', async () => {
    stubAdminApi({
      override: ({ path }) => (path.startsWith('/api/admin/monitoring/') ? { status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } } : undefined),
    });
    renderApp(<SummaryCards />);
    const card = monitoringCard();
    expect(await card.findByText('Failed to load usage data')).toBeInTheDocument();
    expect(await card.findByText('Failed to load rate limit data')).toBeInTheDocument();
  });

  it('refreshes both every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = stubAdminApi({ voiceUsage: usage(100) });
    renderApp(<SummaryCards />);
    const card = monitoringCard();
    expect(await card.findByText('100')).toBeInTheDocument();
    api.state.voiceUsage = usage(45_000);
    api.state.rateLimits.push({ endpoint: 'chat', requestCount: 3, windowStart: new Date().toISOString(), userId: null, ipAddress: '127.0.0.1' });
    const count = (p: string) => api.calls.filter((c) => c.path === p).length;
    const before = count('/api/admin/monitoring/rate-limits');
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(await card.findByText('45,000')).toBeInTheDocument();
    expect(await card.findByText('Approaching daily limit. Monitor usage carefully.')).toBeInTheDocument();
    expect(count('/api/admin/monitoring/rate-limits')).toBe(before + 1);
    expect(card.getByRole('table', { name: 'Recent rate limits' })).toBeInTheDocument();
    // It scrolls on its own: a named region the keyboard can reach (and so scroll).
    const scroller = card.getByRole('region', { name: 'Recent rate limits' });
    expect(scroller).toHaveAttribute('tabindex', '0');
    expect(scroller).toContainElement(card.getByRole('table', { name: 'Recent rate limits' }));
  });
});
