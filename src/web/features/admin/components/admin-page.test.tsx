import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { AppRoutes } from '../../../app/app-routes';
import { ada, fakeApi } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  // Onboarding would open over "/" for a signed-in user; it is not what these tests look at.
  localStorage.setItem(`kindred:onboarding-completed:${ada.id}`, 'true');
});
afterEach(() => vi.unstubAllGlobals());

const openAdmin = () => renderApp(<AppRoutes />, { path: '/admin' });

describe('/admin guard', () => {
  it('sends anonymous visitors to /auth', async () => {
    fakeApi({ user: null });
    const app = openAdmin();
    await waitFor(() => expect(app.location()).toBe('/auth'));
    expect(screen.queryByText('Admin Dashboard')).toBeNull();
  });

  it('sends signed-in non-admins to /', async () => {
    fakeApi({ user: ada, isAdmin: false });
    const app = openAdmin();
    await waitFor(() => expect(app.location()).toBe('/'));
    expect(screen.queryByText('Admin Dashboard')).toBeNull();
  });

  it('shows "Checking permissions..." until the session is known', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    fakeApi({
      user: ada,
      isAdmin: true,
      override: async (call) => {
        if (call.path === '/api/me') await gate;
        return undefined;
      },
    });
    const app = openAdmin();
    expect(await screen.findByText('Checking permissions...')).toBeInTheDocument();
    expect(screen.queryByText('Admin Dashboard')).toBeNull();
    await act(async () => release());
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.queryByText('Checking permissions...')).toBeNull();
    expect(app.location()).toBe('/admin');
  });

  it('sends a former admin to / with a word on why once the server refuses them (the role was removed while open)', async () => {
    const api = fakeApi({
      user: ada,
      isAdmin: true,
      override: (call) =>
        call.path.startsWith('/api/admin') && !api.state.isAdmin ? { status: 403, body: { error: { code: 'FORBIDDEN', message: 'Only administrators can do that' } } } : undefined,
    });
    const app = openAdmin();
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    // Removed elsewhere; the dashboard's next call (the monitoring refresh, a tab, an action) is refused.
    api.state.isAdmin = false;
    await act(async () => {
      await app.queryClient.refetchQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('admin') || JSON.stringify(q.queryKey).includes('admin') });
    });
    await waitFor(() => expect(app.location()).toBe('/'));
    expect(await screen.findByText('Your administrator role was removed, so the dashboard was closed.')).toBeInTheDocument();
    expect(screen.queryByText('Admin Dashboard')).toBeNull();
  });

  it('shows admins the title, subtitle, "Back to Main" and the dashboard container', async () => {
    fakeApi({ user: ada, isAdmin: true });
    const app = openAdmin();
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Manage personalities and user requests')).toBeInTheDocument();
    expect(screen.getByTestId('admin-dashboard')).toBeInTheDocument();
    const back = screen.getByRole('link', { name: 'Back to Main' });
    expect(back).toHaveAttribute('href', '/');
    back.click();
    await waitFor(() => expect(app.location()).toBe('/'));
  });
});
