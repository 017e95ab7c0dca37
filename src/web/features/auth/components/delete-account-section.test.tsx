// Deleting one's account from the Change Password dialog: a password, a confirmation, then the
// sign-in screen and a toast; a wrong password is said next to the field and nothing else changes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRoutes } from '../../../app/app-routes';
import { ada, fakeApi } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { messages } from '../../../../shared/messages';

const DELETE_PATH = '/api/auth/delete-user';

beforeEach(() => localStorage.setItem(`kindred:onboarding-completed:${ada.id}`, 'true'));
afterEach(() => vi.unstubAllGlobals());

async function openDialog() {
  const user = userEvent.setup();
  renderApp(<AppRoutes />, { path: '/' });
  await user.click(await screen.findByRole('button', { name: 'Change Password' }));
  const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
  return { user, dialog };
}

const deletionPassword = (dialog: HTMLElement) => within(dialog).getByLabelText('Your password, to confirm deletion', { selector: 'input' });

describe('Delete Account', () => {
  it('sits below the password change, with its warning, and leaves the existing fields\' names alone', async () => {
    fakeApi({ user: ada });
    const { dialog } = await openDialog();
    expect(within(dialog).getByRole('region', { name: 'Delete Account' })).toHaveTextContent(messages.auth.deleteAccountWarning);
    expect(within(dialog).getAllByLabelText('Current Password', { selector: 'input' })).toHaveLength(1);
    expect(within(dialog).getAllByLabelText('New Password', { selector: 'input' })).toHaveLength(1);
    expect(deletionPassword(dialog)).toHaveAttribute('type', 'password');
  });

  it('asks for confirmation; Cancel sends nothing', async () => {
    const api = fakeApi({ user: ada });
    const { user, dialog } = await openDialog();
    await user.type(deletionPassword(dialog), 'my-secret');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent(messages.auth.deleteAccountWarning);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('POST', DELETE_PATH)).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
  });

  it('once confirmed, deletes with the password, then shows the sign-in screen and says the account is gone', async () => {
    const api = fakeApi({
      user: ada,
      override: (call) => (call.path === DELETE_PATH ? { status: 200, body: { success: true, message: 'User deleted' } } : undefined),
    });
    const { user, dialog } = await openDialog();
    await user.type(deletionPassword(dialog), 'my-secret');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete Account' }));

    expect(await screen.findByText(messages.auth.accountDeleted)).toBeInTheDocument();
    expect(api.callsTo('POST', DELETE_PATH).map((c) => c.body)).toEqual([{ password: 'my-secret' }]);
    expect(await screen.findByRole('tab', { name: 'Sign In', selected: true })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change Password' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Change Password' })).toBeNull();
  });

  it('a wrong password: the server\'s reason next to the field, still signed in, the dialog open', async () => {
    const api = fakeApi({
      user: ada,
      override: (call) => (call.path === DELETE_PATH ? { status: 400, body: { message: 'Invalid password', code: 'INVALID_PASSWORD' } } : undefined),
    });
    const { user, dialog } = await openDialog();
    await user.type(deletionPassword(dialog), 'wrong-one');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete Account' }));

    const field = deletionPassword(dialog);
    await waitFor(() => expect(field).toHaveAccessibleDescription('Invalid password'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Invalid password');
    expect(api.callsTo('POST', DELETE_PATH)).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.queryByText(messages.auth.accountDeleted)).toBeNull();
    // The change-password fields keep no error of this one.
    expect(within(dialog).getByLabelText('Current Password', { selector: 'input' })).not.toHaveAttribute('aria-invalid');
  });

  it('without a password asks for it and opens no confirmation', async () => {
    const api = fakeApi({ user: ada });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(messages.auth.deletionPasswordRequired);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deletionPassword(dialog)).toHaveFocus();
    expect(api.callsTo('POST', DELETE_PATH)).toHaveLength(0);
  });
});
