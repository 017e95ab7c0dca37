// The pending request's "Submitted ... ago": fresh when the server's stamp is ahead of the
// browser's clock, and moving on while the page stays open.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { PublicRequest } from '../../../../shared/schemas/sharing';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { stubSharingApi } from '../test-support/sharing-api-stub';
import { PublicRequestBlock } from './public-request-block';

const personalityId = '7d3c1a52-0000-4000-8000-000000000001';
const now = new Date('2026-03-10T12:00:00.000Z');
const minutes = (n: number) => n * 60_000;
const pending = (createdAt: number): PublicRequest => ({
  id: 'r1',
  status: 'pending',
  requestMessage: null,
  createdAt: new Date(createdAt).toISOString(),
  reviewedAt: null,
});

// Only the clock and intervals are faked: the fake API and Testing Library still wait on real timeouts.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(now);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function open(createdAt: number) {
  stubSharingApi({ user: ada, personalityId, latestRequest: pending(createdAt) });
  renderApp(<PublicRequestBlock personalityId={personalityId} personalityName="Ada Lovelace" />);
}

describe('Public request block', () => {
  it('a request stamped ahead of the browser clock was "Submitted less than a minute ago"', async () => {
    open(now.getTime() + minutes(4));
    expect(await screen.findByText('Submitted less than a minute ago. An admin will review it.')).toBeInTheDocument();
  });

  it('the age moves on while the page stays open', async () => {
    open(now.getTime() - minutes(1));
    expect(await screen.findByText('Submitted 1 minute ago. An admin will review it.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(minutes(6)));
    expect(screen.getByText('Submitted 7 minutes ago. An admin will review it.')).toBeInTheDocument();
  });
});
