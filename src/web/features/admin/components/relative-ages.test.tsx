// The admin screens' "... ago" ages against the browser's clock: a timestamp ahead of it (the
// browser's clock runs behind the server's) reads as fresh, not as minutes old, and the ages keep
// up with time while the page stays open (a minute's tick, and on returning to the tab).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import { renderApp } from '../../../test-support/render-app';
import { makeAdminPersonality, makeRequest, stubAdminApi } from '../test-support/admin-api-stub';
import { ManagePersonalitiesTab } from './manage-personalities-tab';
import { PublicRequestCard } from './public-request-card';
import { RecentReviews } from './recent-reviews';

const now = new Date('2026-03-10T12:00:00.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
const minutes = (n: number) => n * 60_000;

// Only the clock and intervals are faked: the fake API and Testing Library still wait on real timeouts.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(now);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const card = (createdAt: string) =>
  render(<PublicRequestCard request={makeRequest({ personalityName: 'Marie Curie', createdAt })} busy={null} onDecide={() => {}} />);

describe('admin ages', () => {
  it('a request stamped ahead of the browser clock reads as fresh, not "4 minutes ago"', () => {
    card(at(minutes(4)));
    expect(screen.getByText('less than a minute ago')).toBeInTheDocument();
    expect(screen.queryByText(/minutes ago/)).toBeNull();
  });

  it("a request's age moves on while the page stays open", () => {
    card(at(-minutes(2)));
    expect(screen.getByText('2 minutes ago')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(minutes(5)));
    expect(screen.getByText('7 minutes ago')).toBeInTheDocument();
  });

  it('ages catch up when the tab becomes visible again', () => {
    card(at(-minutes(2)));
    // A hidden tab's timers are throttled or frozen: the clock moves on without a tick.
    vi.setSystemTime(now.getTime() + minutes(30));
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(screen.getByText('32 minutes ago')).toBeInTheDocument();
  });

  it('Recent Reviews: reviewed ages are fresh when ahead, move on, and share one timer', () => {
    const reviews = [
      makeRequest({ personalityName: 'Ahead', status: 'approved', reviewedAt: at(minutes(5)) }),
      makeRequest({ personalityName: 'Older', status: 'rejected', reviewedAt: at(-minutes(10)) }),
      makeRequest({ personalityName: 'Oldest', status: 'rejected', reviewedAt: at(-minutes(20)) }),
    ];
    render(<RecentReviews reviews={reviews} />);
    const list = within(screen.getByRole('list', { name: 'Recent reviews' }));
    expect(list.getByText('Reviewed less than a minute ago')).toBeInTheDocument();
    expect(list.getByText('Reviewed 10 minutes ago')).toBeInTheDocument();
    expect(vi.getTimerCount()).toBe(1);
    act(() => vi.advanceTimersByTime(minutes(8)));
    expect(list.getByText('Reviewed 3 minutes ago')).toBeInTheDocument();
    expect(list.getByText('Reviewed 18 minutes ago')).toBeInTheDocument();
  });

  it('Manage Personalities: an "updated" time ahead of the browser clock reads as fresh', async () => {
    stubAdminApi({ publicPersonalities: [makeAdminPersonality({ name: 'Ahead', updatedAt: at(minutes(4)) })] });
    renderApp(<ManagePersonalitiesTab />);
    const rows = within(await screen.findByRole('list', { name: 'Public personalities' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent(/updated less than a minute ago/);
  });
});
