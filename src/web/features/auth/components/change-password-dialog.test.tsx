// Row 11 of issue 16 in the UI: changing the password asks the server to sign out the person's
// other sessions and says so.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRoutes } from '../../../app/app-routes';
import { ada, fakeApi } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { messages } from '../../../../shared/messages';

beforeEach(() => localStorage.setItem(`kindred:onboarding-completed:${ada.id}`, 'true'));
afterEach(() => vi.unstubAllGlobals());

async function openDialog() {
  const user = userEvent.setup();
  renderApp(<AppRoutes />, { path: '/' });
  await user.click(await screen.findByRole('button', { name: 'Change Password' }));
  const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
  expect(dialog).toHaveTextContent('signs you out on your other devices');
  return { user, dialog };
}

describe('Change Password', () => {
  it('is offered only to a signed-in person', async () => {
    fakeApi({ user: null });
    renderApp(<AppRoutes />, { path: '/' });
    expect((await screen.findAllByRole('link', { name: /Sign In/ })).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Change Password' })).toBeNull();
  });

  it('revokes the other sessions and says they were signed out', async () => {
    const api = fakeApi({
      user: ada,
      override: (call) => (call.path === '/api/auth/change-password' ? { status: 200, body: { token: null, user: {} } } : undefined),
    });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Current Password', { selector: 'input' }), 'old-secret');
    await user.type(within(dialog).getByLabelText('New Password', { selector: 'input' }), 'new-secret-2');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByText(messages.auth.passwordChanged)).toBeInTheDocument();
    expect(screen.getByText(messages.auth.otherSessionsSignedOut)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/change-password')[0]!.body).toEqual({
      currentPassword: 'old-secret',
      newPassword: 'new-secret-2',
      revokeOtherSessions: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('cannot be closed while saving, and forgets what was typed once closed', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    fakeApi({
      user: ada,
      override: async (call) => {
        if (call.path !== '/api/auth/change-password') return undefined;
        await answered;
        return { status: 400, body: { message: 'Invalid password', code: 'INVALID_PASSWORD' } };
      },
    });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Current Password', { selector: 'input' }), 'old-secret');
    await user.type(within(dialog).getByLabelText('New Password', { selector: 'input' }), 'new-secret-2');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Change Password' })).toBeDisabled());
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();

    answer();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Invalid password');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    const reopened = await screen.findByRole('dialog', { name: 'Change Password' });
    expect(await within(reopened).findByLabelText('Current Password', { selector: 'input' })).toHaveValue('');
    expect(within(reopened).getByLabelText('New Password', { selector: 'input' })).toHaveValue('');
    expect(within(reopened).queryByRole('alert')).toBeNull();
  });

  it('shows the server\'s reason when the current password is wrong, and stays open', async () => {
    fakeApi({
      user: ada,
      override: (call) =>
        call.path === '/api/auth/change-password' ? { status: 400, body: { message: 'Invalid password', code: 'INVALID_PASSWORD' } } : undefined,
    });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Current Password', { selector: 'input' }), 'wrong-one');
    await user.type(within(dialog).getByLabelText('New Password', { selector: 'input' }), 'new-secret-2');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Invalid password');
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
    // The reason is tied to the field it is about, which takes focus.
    const current = within(dialog).getByLabelText('Current Password', { selector: 'input' });
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(current).toHaveAccessibleDescription('Invalid password');
    expect(current).toHaveFocus();
  });

  it('ties "fill in both" to the fields that need it, and focuses the first', async () => {
    const api = fakeApi({ user: ada });
    const { user, dialog } = await openDialog();
    const current = within(dialog).getByLabelText('Current Password', { selector: 'input' });
    const next = within(dialog).getByLabelText('New Password', { selector: 'input' });
    await user.type(next, 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    const problem = await within(dialog).findByRole('alert');
    expect(problem).toHaveTextContent(messages.auth.passwordHint);
    for (const field of [current, next]) {
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(problem.id);
    }
    expect(current).toHaveFocus();
    expect(api.callsTo('POST', '/api/auth/change-password')).toHaveLength(0);
  });
});
