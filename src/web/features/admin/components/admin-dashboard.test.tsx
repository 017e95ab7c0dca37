import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { makeAdminPersonality, makeRequest, stubAdminApi } from '../test-support/admin-api-stub';
import { AdminDashboard } from './admin-dashboard';

afterEach(() => vi.unstubAllGlobals());

describe('admin dashboard', () => {
  it('shows the summary counts, and Public Requests as the default of four tabs', async () => {
    stubAdminApi({
      pending: [makeRequest(), makeRequest({ personalityName: 'Newton' })],
      publicPersonalities: [makeAdminPersonality(), makeAdminPersonality(), makeAdminPersonality()],
    });
    renderApp(<AdminDashboard />);
    const publicCard = within(screen.getByRole('region', { name: 'Public Personalities' }));
    const pendingCard = within(screen.getByRole('region', { name: 'Pending Requests' }));
    expect(await publicCard.findByText('3')).toBeInTheDocument();
    expect(await pendingCard.findByText('2')).toBeInTheDocument();
    expect(pendingCard.getByText('Awaiting review')).toBeInTheDocument();
    // Monitoring arrives later: the card says so instead of showing numbers.
    const monitoring = screen.getByRole('region', { name: 'System Monitoring' });
    expect(monitoring).toHaveTextContent('Monitoring details arrive with voice features.');
    expect(monitoring.textContent).not.toMatch(/\d/);

    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs).toEqual(['Public Requests', 'Manage Personalities', 'Content Moderation', 'Personality Ordering']);
    expect(screen.getByRole('tab', { name: 'Public Requests' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'Pending Requests (2)' })).toBeInTheDocument();
  });

  it('Content Moderation says plainly that it arrives later', async () => {
    stubAdminApi();
    renderApp(<AdminDashboard />);
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Content Moderation' }));
    expect(await screen.findByText('Content moderation arrives in a later release')).toBeInTheDocument();
  });
});
