// The route wires the sharing feature into the library: the owner's card gets "Share", other
// cards do not, and a change made in the dialog refreshes the library.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRoutes } from '../app-routes';
import { ada, fakeApi } from '../../test-support/fake-api';
import { renderApp } from '../../test-support/render-app';
import { makePersonality } from '../../features/personalities/test-support/personalities-api-stub';

beforeEach(() => localStorage.setItem(`kindred:onboarding-completed:${ada.id}`, 'true'));
afterEach(() => vi.unstubAllGlobals());

describe('library Share action', () => {
  it('appears on the owner\'s card only, and a level change refreshes the library', async () => {
    const mine = makePersonality({ name: 'Mine' });
    const theirs = makePersonality({ name: 'Theirs', sharingType: 'shared', isOwner: false });
    let level: 'private' | 'shared' = 'private';
    const api = fakeApi({
      user: ada,
      override: (c) => {
        if (c.path === '/api/personalities') return { status: 200, body: { personalities: [{ ...mine, sharingType: level }, theirs] } };
        if (c.path === `/api/personalities/${mine.id}/shares`) return { status: 200, body: { shares: [] } };
        if (c.path === `/api/personalities/${mine.id}/public-request`) return { status: 200, body: { request: null } };
        if (c.method === 'PUT' && c.path === `/api/personalities/${mine.id}/sharing`) {
          level = 'shared';
          return { status: 200, body: { personality: { id: mine.id, sharingType: 'shared', isPublic: false } } };
        }
        return undefined;
      },
    });
    renderApp(<AppRoutes />);
    const user = userEvent.setup();
    const mineCard = within(await screen.findByRole('article', { name: 'Mine' }));
    expect(within(screen.getByRole('article', { name: 'Theirs' })).queryByRole('button', { name: /^Share/ })).toBeNull();

    await user.click(mineCard.getByRole('button', { name: 'Share Mine' }));
    await user.click(await screen.findByRole('combobox', { name: 'Sharing level' }));
    await user.click(await screen.findByRole('option', { name: 'Shared with specific users' }));
    expect(await screen.findByText('Personality is now shared')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', '/api/personalities').length).toBeGreaterThanOrEqual(2));
    await waitFor(() => expect(mineCard.getByTestId('sharing-badge')).toHaveTextContent('Shared'));
  });
});
