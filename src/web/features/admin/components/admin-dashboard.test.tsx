import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import { renderApp } from '../../../test-support/render-app';
import { makeAdminPersonality, makeFlag, makeRequest, stubAdminApi } from '../test-support/admin-api-stub';
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
    const monitoring = within(screen.getByRole('region', { name: 'System Monitoring' }));
    expect(await monitoring.findByText('No recent rate limit activity')).toBeInTheDocument();

    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs).toEqual(['Public Requests', 'Manage Personalities', 'Content Moderation', 'Personality Ordering']);
    expect(screen.getByRole('tab', { name: 'Public Requests' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'Requests to review (2)' })).toBeInTheDocument();
    // The spec's card and tab names are each said once, so "find Pending Requests" finds one thing.
    expect(screen.getAllByText('Pending Requests')).toHaveLength(1);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Manage Personalities' }));
    expect(await screen.findByRole('heading', { name: 'Currently public (3)' })).toBeInTheDocument();
    expect(screen.getAllByText('Public Personalities', { exact: false })).toHaveLength(1);
    await user.click(screen.getByRole('tab', { name: 'Personality Ordering' }));
    expect(await screen.findByRole('heading', { name: 'Order of the public library' })).toBeInTheDocument();
    expect(screen.getAllByText('Personality Ordering')).toHaveLength(1);
  });

  it('keeps the open tab in the address, so a reload or a shared link opens it again', async () => {
    stubAdminApi({ publicPersonalities: [makeAdminPersonality()] });
    const user = userEvent.setup();
    const first = renderApp(<AdminDashboard />, { path: '/admin' });
    await user.click(screen.getByRole('tab', { name: 'Personality Ordering' }));
    expect(first.address()).toBe('/admin?tab=ordering');
    first.unmount();

    // As after a reload of that address.
    const reloaded = renderApp(<AdminDashboard />, { path: '/admin?tab=ordering' });
    expect(screen.getByRole('tab', { name: 'Personality Ordering' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'Order of the public library' })).toBeInTheDocument();
    // The default tab keeps the plain address.
    await user.click(screen.getByRole('tab', { name: 'Public Requests' }));
    expect(reloaded.address()).toBe('/admin');
    reloaded.unmount();

    // An unknown tab name opens the default one.
    renderApp(<AdminDashboard />, { path: '/admin?tab=nonsense' });
    expect(screen.getByRole('tab', { name: 'Public Requests' })).toHaveAttribute('aria-selected', 'true');
  });

  it('Content Moderation: pending flags with their details, Confirm Violation and False Positive, then Recently Reviewed', async () => {
    const api = stubAdminApi({
      flags: [
        makeFlag({ personalityName: 'Marie Curie', flagTypes: ['harassment'], confidence: 0.85, excerpt: '<b>You</b> are a worthless idiot.' }),
        makeFlag({
          personalityName: 'Isaac Newton',
          source: 'report',
          flagTypes: ['reported'],
          confidence: 0.5,
          reporter: 'Rita',
          reportReason: 'Felt off',
          documentFileName: 'notes.txt',
          // Its document was deleted since: the name it had, marked so.
          documentDeleted: true,
          personalityIsPublic: true,
          excerpt: 'Gravity bends light.\n\n[DO_NOT_READ](from notes.txt (chunk 3))[/DO_NOT_READ]',
          createdAt: new Date(2026, 10, 27, 9, 5).toISOString(),
        }),
      ],
    });
    const user = userEvent.setup();
    renderApp(<AdminDashboard />);
    await user.click(screen.getByRole('tab', { name: 'Content Moderation' }));
    expect(await screen.findByRole('heading', { name: 'Pending Content Flags (2)' })).toBeInTheDocument();
    const marie = within(screen.getByLabelText('Flag on Marie Curie'));
    // Severe types get the destructive badge; the excerpt is text, never HTML.
    expect(marie.getByTestId('flag-types')).toHaveAttribute('data-variant', 'destructive');
    expect(marie.getByTestId('flag-confidence')).toHaveTextContent('85% confidence');
    expect(marie.getByTestId('flag-excerpt').textContent).toBe('<b>You</b> are a worthless idiot.');
    // Who wrote it: a visitor's message is not the personality's doing.
    expect(marie.getByTestId('flag-source')).toHaveTextContent("A person's message to it");
    const newton = within(screen.getByLabelText('Flag on Isaac Newton'));
    expect(newton.getByTestId('flag-types')).not.toHaveAttribute('data-variant', 'destructive');
    expect(newton.getByText('Rita')).toBeInTheDocument();
    expect(newton.getByTestId('flag-source')).toHaveTextContent('A reply reported by a person');
    expect(newton.getByText('notes.txt')).toBeInTheDocument();
    expect(newton.getByText('(deleted)')).toBeInTheDocument();
    expect(marie.queryByText('(deleted)')).toBeNull();
    // Spec section 9's date format; a reported reply's citation bold, its markers not shown.
    expect(newton.getByText('Nov 27, 2026 09:05')).toBeInTheDocument();
    expect(newton.getByTestId('flag-excerpt').textContent).toBe('Gravity bends light.\n\n(from notes.txt (chunk 3))');
    expect(within(newton.getByTestId('flag-excerpt')).getByText('(from notes.txt (chunk 3))').tagName).toBe('STRONG');

    await user.type(marie.getByLabelText('Admin notes (optional)'), 'Abusive');
    await user.click(marie.getByRole('button', { name: 'Confirm Violation' }));
    expect(await screen.findByText('Flag updated successfully')).toBeInTheDocument();
    expect(api.state.flags[0]).toMatchObject({ status: 'approved', adminNotes: 'Abusive' });
    expect(await screen.findByRole('heading', { name: 'Pending Content Flags (1)' })).toBeInTheDocument();
    const reviewed = within(screen.getByRole('list', { name: 'Recently reviewed flags' }));
    expect(reviewed.getByText('Confirmed')).toBeInTheDocument();
    expect(reviewed.getByText('Abusive')).toBeInTheDocument();
    expect(reviewed.getByText(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}$/)).toBeInTheDocument();
    // A confirmed violation on a public personality offers making it private.
    expect(reviewed.getByRole('button', { name: 'Make Private: Marie Curie' })).toBeInTheDocument();

    await user.click(within(screen.getByLabelText('Flag on Isaac Newton')).getByRole('button', { name: 'False Positive' }));
    expect(await screen.findByText('No pending flags')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Recently reviewed flags' })).getByText('False Positive')).toBeInTheDocument();
  });

  it("keeps a deleted personality's flags: \"[Deleted Personality]\" struck through with the name it was flagged under, reviewable, and no Make Private", async () => {
    const gone = { personalityId: null, personalityName: messages.approval.deletedPersonality, personalityDeleted: true, personalityNameAtFlag: 'Old Ada', personalityIsPublic: false };
    const api = stubAdminApi({
      flags: [
        makeFlag({ ...gone, excerpt: 'You are a pathetic clown.' }),
        makeFlag({ ...gone, status: 'approved', adminNotes: 'Abuse', reviewedAt: new Date().toISOString() }),
      ],
    });
    const user = userEvent.setup();
    renderApp(<AdminDashboard />);
    await user.click(screen.getByRole('tab', { name: 'Content Moderation' }));
    const card = within(await screen.findByLabelText('Flag on [Deleted Personality]'));
    const name = card.getByTestId('flag-personality');
    expect(within(name).getByText('[Deleted Personality]')).toHaveClass('line-through');
    expect(within(name).getByText('Deleted')).toBeInTheDocument();
    expect(name).toHaveTextContent(messages.admin.flaggedPersonalityDeleted('Old Ada'));
    const reviewed = within(screen.getByRole('list', { name: 'Recently reviewed flags' }));
    expect(reviewed.getByText('Confirmed')).toBeInTheDocument();
    expect(reviewed.getByText('[Deleted Personality]')).toHaveClass('line-through');
    expect(reviewed.queryByRole('button', { name: /private/i })).toBeNull();

    await user.click(card.getByRole('button', { name: 'Confirm Violation' }));
    expect(await screen.findByText('Flag updated successfully')).toBeInTheDocument();
    expect(api.state.flags[0]).toMatchObject({ status: 'approved' });
  });

  it('says when a reported text could not be matched to a reply the personality gave', async () => {
    stubAdminApi({ flags: [makeFlag({ personalityName: 'Ada', source: 'report', flagTypes: ['reported', 'unverified'], excerpt: 'Ada said: something vile' })] });
    const user = userEvent.setup();
    renderApp(<AdminDashboard />);
    await user.click(screen.getByRole('tab', { name: 'Content Moderation' }));
    const card = within(await screen.findByLabelText('Flag on Ada'));
    expect(card.getByTestId('flag-source')).toHaveTextContent('Text a person reported as its reply, not matched to a reply it gave');
    expect(card.getByTestId('flag-types')).toHaveTextContent('reported, unverified');
  });

  it('a failed review says why', async () => {
    stubAdminApi({ flags: [makeFlag({ status: 'pending' })], override: ({ method, path }) => (method === 'POST' && path.endsWith('/review') ? { status: 409, body: { error: { code: 'CONFLICT', message: 'This flag has already been reviewed' } } } : undefined) });
    const user = userEvent.setup();
    renderApp(<AdminDashboard />);
    await user.click(screen.getByRole('tab', { name: 'Content Moderation' }));
    await user.click(await screen.findByRole('button', { name: 'False Positive' }));
    expect(await screen.findByText('Failed to update flag: This flag has already been reviewed')).toBeInTheDocument();
  });

  it('after a flag is reviewed, focus goes to the next flag\'s first action, then the heading', async () => {
    stubAdminApi({ flags: [makeFlag({ personalityName: 'Marie Curie' }), makeFlag({ personalityName: 'Isaac Newton' })] });
    const user = userEvent.setup();
    renderApp(<AdminDashboard />);
    await user.click(screen.getByRole('tab', { name: 'Content Moderation' }));
    within(await screen.findByLabelText('Flag on Marie Curie')).getByRole('button', { name: 'False Positive' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByLabelText('Flag on Marie Curie')).toBeNull());
    await waitFor(() => expect(within(screen.getByLabelText('Flag on Isaac Newton')).getByRole('button', { name: 'Confirm Violation' })).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(await screen.findByText('No pending flags')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Pending Content Flags (0)' })).toHaveFocus());
  });
});
