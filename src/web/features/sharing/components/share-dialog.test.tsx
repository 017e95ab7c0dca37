import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SharingType } from '../../../../shared/limits';
import type { PublicRequest, Share } from '../../../../shared/schemas/sharing';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { stubSharingApi, type SharingStubOptions } from '../test-support/sharing-api-stub';
import { ShareDialog } from './share-dialog';

afterEach(() => vi.unstubAllGlobals());

const personalityId = '7d3c1a52-0000-4000-8000-000000000001';

async function openShare(options: Partial<SharingStubOptions> & { level?: SharingType } = {}) {
  const api = stubSharingApi({ user: ada, personalityId, accounts: { 'bob@example.com': 'user-bob' }, ...options });
  const onChanged = vi.fn();
  const personality = { id: personalityId, name: 'Ada Lovelace', sharingType: options.level ?? 'private', isPublic: options.level === 'public' };
  renderApp(<ShareDialog personality={personality} onChanged={onChanged} />);
  const user = userEvent.setup();
  // The viewer (and whether they are an admin) is known before the dialog is used.
  await waitFor(() => expect(api.callsTo('GET', '/api/me')).toHaveLength(1));
  await user.click(screen.getByRole('button', { name: 'Share Ada Lovelace' }));
  const dialog = await screen.findByRole('dialog', { name: 'Share Ada Lovelace' });
  return { api, onChanged, user, dialog: within(dialog) };
}

const levelSelect = () => screen.getByRole('combobox', { name: 'Sharing level' });
const puts = (api: ReturnType<typeof stubSharingApi>) => api.callsTo('PUT', `${api.base}/sharing`);

describe('Share dialog: sharing level', () => {
  it('applies private and shared at once for an owner, and reports the new level', async () => {
    const { api, onChanged, user } = await openShare();
    expect(levelSelect()).toHaveTextContent('Private');
    await user.click(levelSelect());
    await user.click(await screen.findByRole('option', { name: 'Shared with specific users' }));
    expect(await screen.findByText('Sharing updated')).toBeInTheDocument();
    expect(screen.getByText('Personality is now shared')).toBeInTheDocument();
    expect(puts(api).map((c) => c.body)).toEqual([{ sharingType: 'shared' }]);
    expect(levelSelect()).toHaveTextContent('Shared with specific users');
    expect(onChanged).toHaveBeenCalled();
  });

  it('drops the "Public Request Pending" badge once the owner chooses another level (the request is withdrawn)', async () => {
    const latestRequest: PublicRequest = { id: 'request-1', status: 'pending', requestMessage: null, createdAt: '2026-01-02T03:04:05.000Z', reviewedAt: null };
    const { user, dialog } = await openShare({ latestRequest });
    expect(await dialog.findByText('Public Request Pending')).toBeInTheDocument();
    await user.click(levelSelect());
    await user.click(await screen.findByRole('option', { name: 'Shared with specific users' }));
    expect(await dialog.findByText('Want to make this public?')).toBeInTheDocument();
    expect(dialog.queryByText('Public Request Pending')).toBeNull();
  });

  it('blocks a non-admin choosing public: approval hint, nothing sent, the select reverts', async () => {
    const { api, user, dialog } = await openShare({ level: 'shared' });
    await user.click(levelSelect());
    expect(screen.queryByRole('option', { name: 'Public (Admin Only)' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Public (Requires Approval)' }));
    expect(await screen.findByText('Admin approval required')).toBeInTheDocument();
    expect(screen.getByText('Use "Request Public" to ask an admin to make this personality public.')).toBeInTheDocument();
    expect(puts(api)).toHaveLength(0);
    expect(levelSelect()).toHaveTextContent('Shared with specific users');
    expect(dialog.getByText('Want to make this public?')).toBeInTheDocument();
  });

  it('lets an admin make it public at once; the request block disappears', async () => {
    const { api, user, dialog } = await openShare({ isAdmin: true });
    expect(await dialog.findByText('Want to make this public?')).toBeInTheDocument();
    await user.click(levelSelect());
    expect(screen.queryByRole('option', { name: 'Public (Requires Approval)' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Public (Admin Only)' }));
    expect(await screen.findByText('Personality is now public')).toBeInTheDocument();
    expect(puts(api).map((c) => c.body)).toEqual([{ sharingType: 'public' }]);
    expect(levelSelect()).toHaveTextContent('Public (Admin Only)');
    expect(dialog.queryByText('Want to make this public?')).toBeNull();
  });

  it('reverts the select and says so when the update fails', async () => {
    const { user } = await openShare({
      override: (c) => (c.method === 'PUT' ? { status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } } : undefined),
    });
    await user.click(levelSelect());
    await user.click(await screen.findByRole('option', { name: 'Shared with specific users' }));
    expect(await screen.findByText('Failed to update sharing settings')).toBeInTheDocument();
    expect(levelSelect()).toHaveTextContent('Private');
  });
});

describe('Share dialog: people', () => {
  it('adds a person by e-mail, switching a private personality to shared; blank is ignored', async () => {
    const { api, onChanged, user, dialog } = await openShare();
    const input = dialog.getByLabelText('Add a person by email');
    expect(input).toHaveAttribute('type', 'email');
    expect(await dialog.findByText('Shared with (0)')).toBeInTheDocument();

    await user.type(input, '   ');
    await user.click(dialog.getByRole('button', { name: 'Add person' }));
    expect(api.callsTo('POST', `${api.base}/shares`)).toHaveLength(0);

    await user.clear(input);
    await user.type(input, ' bob@example.com {Enter}');
    expect(await screen.findByText('User added')).toBeInTheDocument();
    expect(screen.getByText('Shared with bob@example.com')).toBeInTheDocument();
    expect(api.callsTo('POST', `${api.base}/shares`).map((c) => c.body)).toEqual([{ email: 'bob@example.com' }]);
    expect(await dialog.findByText('Shared with (1)')).toBeInTheDocument();
    expect(dialog.getByRole('list', { name: 'People with access' })).toHaveTextContent('bob@example.com');
    expect(levelSelect()).toHaveTextContent('Shared with specific users');
    expect(onChanged).toHaveBeenCalled();
    expect(input).toHaveValue('');
  });

  it.each([
    ['an unknown e-mail', 'nobody@example.com', undefined, 'User with this email not found'],
    ['a person already added', 'bob@example.com', undefined, 'This user is already added'],
    ['a server message', 'bob@example.com', 'You cannot share a personality with yourself', 'You cannot share a personality with yourself'],
  ])('reports %s', async (_what, email, serverMessage, shown) => {
    const existing: Share = { id: 'share-bob', userId: 'user-bob', email: 'bob@example.com', createdAt: '2026-01-01T00:00:00.000Z' };
    const { user, dialog } = await openShare({
      shares: serverMessage ? [] : [existing],
      override: (c) =>
        serverMessage && c.method === 'POST' ? { status: 400, body: { error: { code: 'BAD_REQUEST', message: serverMessage } } } : undefined,
    });
    await user.type(dialog.getByLabelText('Add a person by email'), `${email}{Enter}`);
    // Under the field, tied to it, and only there (a toast is hidden from screen readers behind the
    // dialog; both would put the words on the page twice).
    expect(await dialog.findByText(shown)).toBeInTheDocument();
    expect(dialog.getByRole('alert')).toHaveTextContent(shown);
    expect(dialog.getByLabelText('Add a person by email')).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.getByLabelText('Add a person by email')).toHaveAccessibleDescription(shown);
    expect(dialog.getByLabelText('Add a person by email')).toHaveFocus();
    expect(screen.getAllByText(shown)).toHaveLength(1);
    expect(screen.queryByText('User added')).toBeNull();
  });

  it('falls back to "Failed to share personality" when the server cannot be reached', async () => {
    const { api, user, dialog } = await openShare();
    api.fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
    await user.type(dialog.getByLabelText('Add a person by email'), 'bob@example.com{Enter}');
    expect(await dialog.findByText('Failed to share personality')).toBeInTheDocument();
    expect(screen.getAllByText('Failed to share personality')).toHaveLength(1);
  });

  it('lists people ("Unknown" when the e-mail is missing) and removes them', async () => {
    const shares: Share[] = [
      { id: 'share-1', userId: 'user-bob', email: 'bob@example.com', createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'share-2', userId: 'user-gone', email: 'Unknown', createdAt: '2026-01-01T00:00:00.000Z' },
    ];
    const { api, user, dialog } = await openShare({ level: 'shared', shares });
    expect(await dialog.findByText('Shared with (2)')).toBeInTheDocument();
    expect(dialog.getByText('Unknown')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Remove bob@example.com' }));
    expect(await screen.findByText('User removed')).toBeInTheDocument();
    expect(api.callsTo('DELETE', `${api.base}/shares/share-1`)).toHaveLength(1);
    expect(await dialog.findByText('Shared with (1)')).toBeInTheDocument();
    expect(dialog.queryByText('bob@example.com')).toBeNull();
  });

  it('says "Failed to remove user" when removing fails', async () => {
    const shares: Share[] = [{ id: 'share-1', userId: 'user-bob', email: 'bob@example.com', createdAt: '2026-01-01T00:00:00.000Z' }];
    const { user, dialog } = await openShare({
      level: 'shared',
      shares,
      override: (c) => (c.method === 'DELETE' ? { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Share not found' } } } : undefined),
    });
    await user.click(await dialog.findByRole('button', { name: 'Remove bob@example.com' }));
    expect(await screen.findByText('Failed to remove user')).toBeInTheDocument();
  });
});

describe('Share dialog: public request', () => {
  it('submits a trimmed message and then shows "Public Request Pending"', async () => {
    const { api, user, dialog } = await openShare();
    await user.click(await dialog.findByRole('button', { name: 'Request Public' }));
    const request = await screen.findByRole('dialog', { name: 'Request Public' });
    await user.type(within(request).getByLabelText('Message to admin (optional)'), '  Loved by students  ');
    await user.click(within(request).getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Request submitted')).toBeInTheDocument();
    expect(screen.getByText('Your request to make this personality public has been submitted for admin review.')).toBeInTheDocument();
    expect(api.callsTo('POST', `${api.base}/public-requests`).map((c) => c.body)).toEqual([{ message: 'Loved by students' }]);
    expect(await dialog.findByText('Public Request Pending')).toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Request Public' })).toBeNull();
  });

  it('reports a request already pending (409)', async () => {
    const { user, dialog } = await openShare({
      override: (c) =>
        c.method === 'POST' && c.path.endsWith('/public-requests')
          ? { status: 409, body: { error: { code: 'CONFLICT', message: 'A request for this personality is already pending' } } }
          : undefined,
    });
    await user.click(await dialog.findByRole('button', { name: 'Request Public' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Request Public' })).getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('A request for this personality is already pending')).toBeInTheDocument();
  });

  it('shows a pending request as a badge, without the Request Public button', async () => {
    const pending: PublicRequest = { id: 'r1', status: 'pending', requestMessage: null, createdAt: new Date().toISOString(), reviewedAt: null };
    const first = await openShare({ latestRequest: pending });
    expect(await first.dialog.findByText('Public Request Pending')).toBeInTheDocument();
    expect(first.dialog.queryByRole('button', { name: 'Request Public' })).toBeNull();
  });

  it('after a rejection says so and allows a new request', async () => {
    const rejected: PublicRequest = {
      id: 'r1',
      status: 'rejected',
      requestMessage: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      reviewedAt: '2026-01-02T00:00:00.000Z',
    };
    const { api, user, dialog } = await openShare({ latestRequest: rejected });
    expect(
      await dialog.findByText('Your last request to make this personality public was rejected. You can request again.'),
    ).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Request Public' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Request Public' })).getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Request submitted')).toBeInTheDocument();
    expect(api.callsTo('POST', `${api.base}/public-requests`).map((c) => c.body)).toEqual([{ message: '' }]);
  });
});
