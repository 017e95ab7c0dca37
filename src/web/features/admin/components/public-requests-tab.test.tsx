import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { makeRequest, stubAdminApi, type AdminStubOptions } from '../test-support/admin-api-stub';
import { PublicRequestsTab } from './public-requests-tab';

afterEach(() => vi.unstubAllGlobals());

function open(options: AdminStubOptions) {
  const api = stubAdminApi(options);
  renderApp(<PublicRequestsTab />);
  return { api, user: userEvent.setup() };
}

const requestCard = (name: string) => screen.findByRole('article', { name });

describe('Public Requests tab', () => {
  it('shows each pending request with its details and the spec clamps', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `Rule ${i}.`).join('\n');
    open({ pending: [makeRequest({ personalityName: 'Marie Curie', behaviorInstructions: long, requestMessage: 'Great for chemistry classes' })] });
    const card = within(await requestCard('Marie Curie'));
    expect(card.getByText('bob@example.com')).toBeInTheDocument();
    expect(card.getByText('about 3 hours ago')).toBeInTheDocument();
    expect(card.getByText('Pending')).toBeInTheDocument();
    expect(card.getByText('Physicist and chemist.')).toBeInTheDocument();
    expect(card.getByTestId('behavior-instructions')).toHaveClass('line-clamp-3');
    expect(card.getByText('Great for chemistry classes')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Approve Marie Curie' })).toBeEnabled();
    expect(card.getByRole('button', { name: 'Reject Marie Curie' })).toBeEnabled();
  });

  it('approves: toast, request moves to Recent Reviews as Approved', async () => {
    const request = makeRequest({ personalityName: 'Marie Curie' });
    const { api, user } = open({ pending: [request] });
    await user.click(within(await requestCard('Marie Curie')).getByRole('button', { name: 'Approve Marie Curie' }));
    expect(await screen.findByText('Request approved')).toBeInTheDocument();
    expect(screen.getByText('The personality has been made public.')).toBeInTheDocument();
    expect(api.callsTo('POST', `/api/admin/public-requests/${request.id}/approve`)).toHaveLength(1);
    expect(await screen.findByText('No pending requests')).toBeInTheDocument();
    const reviews = within(screen.getByRole('list', { name: 'Recent reviews' }));
    expect(reviews.getByText('Marie Curie')).toBeInTheDocument();
    expect(reviews.getByText('Approved')).toBeInTheDocument();
    expect(reviews.getByText(/^Reviewed .* ago$/)).toBeInTheDocument();
  });

  it('rejects: toast, and the failure message when it fails', async () => {
    const ok = makeRequest({ personalityName: 'Marie Curie' });
    const failing = makeRequest({ personalityName: 'Newton' });
    const { user } = open({
      pending: [ok, failing],
      override: (c) => (c.path.includes(failing.id) ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined),
    });
    await user.click(within(await requestCard('Marie Curie')).getByRole('button', { name: 'Reject Marie Curie' }));
    expect(await screen.findByText('Request rejected')).toBeInTheDocument();
    expect(screen.getByText('The request has been rejected.')).toBeInTheDocument();
    await user.click(within(await requestCard('Newton')).getByRole('button', { name: 'Reject Newton' }));
    expect(await screen.findByText('Failed to reject request.')).toBeInTheDocument();
  });

  it('shows the server message when approval fails, or the fallback when the server is unreachable', async () => {
    const request = makeRequest({ personalityName: 'Marie Curie' });
    const { api, user } = open({
      pending: [request],
      override: (c) =>
        c.path.endsWith('/approve')
          ? { status: 409, body: { error: { code: 'CONFLICT', message: 'Cannot approve request: The personality no longer exists. It may have been deleted.' } } }
          : undefined,
    });
    const approve = within(await requestCard('Marie Curie')).getByRole('button', { name: 'Approve Marie Curie' });
    await user.click(approve);
    expect(
      await screen.findByText('Cannot approve request: The personality no longer exists. It may have been deleted.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(approve).toBeEnabled());
    api.fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
    await user.click(approve);
    expect(await screen.findByText('Failed to approve request.')).toBeInTheDocument();
  });

  it('a deleted personality: placeholder name struck through, Deleted badge, only "Reject (Personality Deleted)"', async () => {
    const request = makeRequest({
      personalityId: null,
      personalityName: '[Deleted Personality]',
      personalityDeleted: true,
      personalityNameAtRequest: 'Old Name',
      description: null,
      behaviorInstructions: null,
    });
    const { api, user } = open({ pending: [request] });
    const card = within(await requestCard('[Deleted Personality]'));
    expect(card.getByText('[Deleted Personality]')).toHaveClass('line-through');
    expect(card.getByText('Deleted')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: /^Approve/ })).toBeNull();
    expect(card.getAllByRole('button')).toHaveLength(1);
    await user.click(card.getByRole('button', { name: 'Reject (Personality Deleted)' }));
    expect(await screen.findByText('Request rejected')).toBeInTheDocument();
    expect(api.callsTo('POST', `/api/admin/public-requests/${request.id}/reject`)).toHaveLength(1);
  });

  it('shows the empty state and up to 5 recent reviews with their status', async () => {
    const recent = [
      makeRequest({ personalityName: 'A', status: 'approved', reviewedAt: new Date().toISOString() }),
      makeRequest({ personalityName: 'B', status: 'rejected', reviewedAt: new Date().toISOString() }),
      // Deleted since the review: which one it was is still told, by its name when requested.
      makeRequest({ personalityId: null, personalityName: '[Deleted Personality]', personalityDeleted: true, personalityNameAtRequest: 'Ugo Public', status: 'approved', reviewedAt: new Date().toISOString() }),
    ];
    open({ recent });
    expect(await screen.findByText('No pending requests')).toBeInTheDocument();
    const items = within(screen.getByRole('list', { name: 'Recent reviews' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Approved');
    expect(items[1]).toHaveTextContent('Rejected');
    expect(items[1]).not.toHaveTextContent('Requested as');
    expect(items[2]).toHaveTextContent('[Deleted Personality]');
    expect(items[2]).toHaveTextContent('Requested as “Ugo Public”');
  });

  it('after a decision, focus goes to the next request (then the previous one, then the heading); a failure gives it back', async () => {
    const first = makeRequest({ personalityName: 'Marie Curie' });
    const second = makeRequest({ personalityName: 'Newton' });
    const third = makeRequest({ personalityName: 'Hypatia' });
    let failing = true;
    const { user } = open({
      pending: [first, second, third],
      override: (c) => (failing && c.path.includes(third.id) ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined),
    });
    within(await requestCard('Marie Curie')).getByRole('button', { name: 'Approve Marie Curie' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Marie Curie' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve Newton' })).toHaveFocus());

    // Refused: the card stays, and focus goes back to the button pressed.
    const reject = within(await requestCard('Hypatia')).getByRole('button', { name: 'Reject Hypatia' });
    reject.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Failed to reject request.')).toBeInTheDocument();
    await waitFor(() => expect(reject).toHaveFocus());

    failing = false;
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Hypatia' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve Newton' })).toHaveFocus());

    await user.keyboard('{Enter}');
    expect(await screen.findByText('No pending requests')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Requests to review (0)' })).toHaveFocus());
  });

  it('many pending: the heading counts them all, older ones come with "Show older requests", a rejection takes one off', async () => {
    const names = ['Ada', 'Babbage', 'Curie', 'Darwin', 'Euler'];
    const { api, user } = open({ pageSize: 2, pending: names.map((name) => makeRequest({ personalityName: name })) });
    const shown = () => screen.getAllByRole('article').map((card) => document.getElementById(card.getAttribute('aria-labelledby')!)!.textContent);
    expect(await screen.findByRole('heading', { name: 'Requests to review (5)' })).toBeInTheDocument();
    expect(shown()).toEqual(['Ada', 'Babbage']);
    expect(screen.getByText('Showing the newest 2 of 5')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show older requests' }));
    await requestCard('Darwin');
    expect(shown()).toEqual(['Ada', 'Babbage', 'Curie', 'Darwin']);
    expect(api.callsTo('GET', '/api/admin/public-requests').at(-1)!.query.get('before')).toBe(api.state.pending[1]!.id);

    await user.click(within(await requestCard('Ada')).getByRole('button', { name: 'Reject Ada' }));
    expect(await screen.findByRole('heading', { name: 'Requests to review (4)' })).toBeInTheDocument();
    expect(shown()).toEqual(['Babbage', 'Curie', 'Darwin', 'Euler']);
    expect(screen.queryByRole('button', { name: 'Show older requests' })).toBeNull();
  });
});
