// Content Moderation with more pending flags than one page: the heading counts them all, older
// ones come with "Show older flags", and a review takes one off the count.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { makeFlag, stubAdminApi } from '../test-support/admin-api-stub';
import { ContentModerationTab } from './content-moderation-tab';

afterEach(() => vi.unstubAllGlobals());

const names = ['Ada', 'Babbage', 'Curie', 'Darwin', 'Euler'];
const shownFlags = () => screen.getAllByTestId('content-flag').map((card) => card.getAttribute('aria-label'));

describe('Content Moderation: many pending flags', () => {
  it('heads the list with every pending flag, says how many are shown, and shows older ones on request', async () => {
    const api = stubAdminApi({ pageSize: 2, flags: names.map((name) => makeFlag({ personalityName: name })) });
    const user = userEvent.setup();
    renderApp(<ContentModerationTab />);
    expect(await screen.findByRole('heading', { name: 'Pending Content Flags (5)' })).toBeInTheDocument();
    expect(shownFlags()).toEqual(['Flag on Ada', 'Flag on Babbage']);
    expect(screen.getByText('Showing the newest 2 of 5')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show older flags' }));
    expect(await screen.findByLabelText('Flag on Darwin')).toBeInTheDocument();
    expect(shownFlags()).toEqual(['Flag on Ada', 'Flag on Babbage', 'Flag on Curie', 'Flag on Darwin']);
    expect(api.callsTo('GET', '/api/admin/content-flags').at(-1)!.query.get('before')).toBe(api.state.flags[1]!.id);

    await user.click(screen.getByRole('button', { name: 'Show older flags' }));
    expect(await screen.findByLabelText('Flag on Euler')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show older flags' })).toBeNull();
    expect(screen.queryByText(/^Showing the newest/)).toBeNull();
  });

  it('a review takes one off the heading, and the flags already shown stay shown', async () => {
    stubAdminApi({ pageSize: 2, flags: names.map((name) => makeFlag({ personalityName: name })) });
    const user = userEvent.setup();
    renderApp(<ContentModerationTab />);
    await user.click(await screen.findByRole('button', { name: 'Show older flags' }));
    await screen.findByLabelText('Flag on Darwin');
    await user.click(within(screen.getByLabelText('Flag on Babbage')).getByRole('button', { name: 'False Positive' }));
    expect(await screen.findByRole('heading', { name: 'Pending Content Flags (4)' })).toBeInTheDocument();
    expect(shownFlags()).toEqual(['Flag on Ada', 'Flag on Curie', 'Flag on Darwin', 'Flag on Euler']);
    expect(screen.queryByRole('button', { name: 'Show older flags' })).toBeNull();
  });

  it('by keyboard: when the last older page takes the button away, focus goes on to the first older flag', async () => {
    stubAdminApi({ pageSize: 3, flags: names.map((name) => makeFlag({ personalityName: name })) });
    const user = userEvent.setup();
    renderApp(<ContentModerationTab />);
    (await screen.findByRole('button', { name: 'Show older flags' })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(screen.getByLabelText('Flag on Darwin')).getByRole('button', { name: 'Confirm Violation' })).toHaveFocus());
  });

  it('says so when the older flags cannot be loaded, and keeps what is shown', async () => {
    stubAdminApi({
      pageSize: 2,
      flags: names.map((name) => makeFlag({ personalityName: name })),
      override: ({ path, query }) => (path === '/api/admin/content-flags' && query.has('before') ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined),
    });
    const user = userEvent.setup();
    renderApp(<ContentModerationTab />);
    await user.click(await screen.findByRole('button', { name: 'Show older flags' }));
    expect(await screen.findByText('Failed to load older flags')).toBeInTheDocument();
    expect(shownFlags()).toEqual(['Flag on Ada', 'Flag on Babbage']);
    expect(screen.getByRole('heading', { name: 'Pending Content Flags (5)' })).toBeInTheDocument();
  });
});
