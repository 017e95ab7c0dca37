// "... ago" against the browser's clock: future times read as fresh, and one shared minute clock
// keeps every age on the page current, running only while something shows an age.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { formatAge, useAgo } from './relative-age';

const now = new Date('2026-03-10T12:00:00.000Z').getTime();
const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();

describe('formatAge', () => {
  it('reads a time ahead of the clock as "less than a minute ago", never as a positive age', () => {
    expect(formatAge(iso(4 * 60_000), now)).toBe('less than a minute ago');
    expect(formatAge(iso(3 * 60 * 60_000), now)).toBe('less than a minute ago');
  });

  it('reads past times with date-fns wording', () => {
    expect(formatAge(iso(-20_000), now)).toBe('less than a minute ago');
    expect(formatAge(iso(-5 * 60_000), now)).toBe('5 minutes ago');
    expect(formatAge(iso(-3 * 60 * 60_000), now)).toBe('about 3 hours ago');
  });
});

function Age({ at }: { at: string }) {
  const ago = useAgo();
  return <p>{ago(at)}</p>;
}

describe('useAgo', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(now);
  });
  afterEach(() => vi.useRealTimers());

  it('shares one interval between all ages and stops it when none is shown', () => {
    const { unmount } = render(
      <>
        <Age at={iso(-60_000)} />
        <Age at={iso(-2 * 60_000)} />
        <Age at={iso(-3 * 60_000)} />
      </>,
    );
    expect(vi.getTimerCount()).toBe(1);
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('2 minutes ago')).toBeInTheDocument();
    expect(screen.getByText('3 minutes ago')).toBeInTheDocument();
    expect(screen.getByText('4 minutes ago')).toBeInTheDocument();
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts from the current time when an age appears after the clock stood still', () => {
    render(<Age at={iso(-60_000)} />).unmount();
    vi.setSystemTime(now + 10 * 60_000);
    render(<Age at={iso(-60_000)} />);
    expect(screen.getByText('11 minutes ago')).toBeInTheDocument();
  });

  it('ignores the tab being hidden, catches up when it is visible again', () => {
    render(<Age at={iso(-60_000)} />);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    vi.setSystemTime(now + 30 * 60_000);
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(screen.getByText('1 minute ago')).toBeInTheDocument();
    visibility.mockReturnValue('visible');
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(screen.getByText('31 minutes ago')).toBeInTheDocument();
    visibility.mockRestore();
  });
});
