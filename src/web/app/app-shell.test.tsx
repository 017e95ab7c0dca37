import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRoutes } from './app-routes';
import { ada, fakeApi } from '../test-support/fake-api';
import { renderApp } from '../test-support/render-app';
import { authKeys } from '../features/auth/api/get-me';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

const header = () => screen.getByRole('banner');
const skipOnboarding = (userId: string) => localStorage.setItem(`kindred:onboarding-completed:${userId}`, 'true');

describe('app shell', () => {
  it('shows the 404 page for unknown paths, with a link home', async () => {
    fakeApi();
    const app = renderApp(<AppRoutes />, { path: '/no/such/page' });
    expect(screen.getByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Return to Home' }));
    await waitFor(() => expect(app.location()).toBe('/'));
  });

  it('header for a signed-out visitor: logo and title, Feedback, Sign In (to /auth); no Admin or Sign Out', async () => {
    fakeApi({ user: null });
    renderApp(<AppRoutes />);
    const signIn = await within(header()).findByRole('link', { name: 'Sign In' });
    expect(signIn).toHaveAttribute('href', '/auth');
    expect(within(header()).getByRole('link', { name: 'Kindred' })).toHaveAttribute('href', '/');
    expect(within(header()).getByRole('button', { name: 'Feedback' })).toBeInTheDocument();
    expect(within(header()).queryByRole('button', { name: 'Admin' })).toBeNull();
    expect(within(header()).queryByRole('button', { name: 'Sign Out' })).toBeNull();
  });

  it('shows "Loading..." while the session is being resolved, then the dashboard', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    fakeApi({
      override: async (call) => {
        if (call.path === '/api/me') await gate;
        return undefined;
      },
    });
    renderApp(<AppRoutes />);
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    expect(within(header()).queryByRole('link', { name: 'Sign In' })).toBeNull();
    await act(async () => release());
    expect(await screen.findByText('No public personalities available')).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('shows the Admin button only to admins', async () => {
    skipOnboarding(ada.id);
    fakeApi({ user: ada, isAdmin: true });
    const admin = renderApp(<AppRoutes />);
    await userEvent.setup().click(await within(header()).findByRole('button', { name: 'Admin' }));
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    admin.unmount();

    fakeApi({ user: ada, isAdmin: false });
    renderApp(<AppRoutes />);
    await within(header()).findByRole('button', { name: 'Sign Out' });
    expect(within(header()).queryByRole('button', { name: 'Admin' })).toBeNull();
  });

  it('Sign Out ends the session on the server, forgets cached data and goes to /auth', async () => {
    skipOnboarding(ada.id);
    const api = fakeApi({ user: ada });
    const app = renderApp(<AppRoutes />);
    await screen.findByText('No personalities yet');
    // Before: Ada's answers are cached (who she is, and her personalities).
    expect(app.queryClient.getQueryCache().getAll().length).toBeGreaterThan(1);

    await userEvent.setup().click(within(header()).getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(app.location()).toBe('/auth'));
    expect(api.callsTo('POST', '/api/auth/sign-out')).toHaveLength(1);
    // Only the signed-out "me" is left in the cache: nothing fetched as Ada survives.
    const keys = app.queryClient.getQueryCache().getAll().map((q) => q.queryKey);
    expect(keys).toEqual([authKeys.me()]);
    expect(app.queryClient.getQueryData(authKeys.me())).toEqual({ user: null, isAdmin: false });
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('opens onboarding on the main screen for a signed-in user who has not completed it', async () => {
    fakeApi({ user: ada });
    renderApp(<AppRoutes />);
    expect(await screen.findByRole('dialog', { name: 'Welcome to Kindred' })).toBeInTheDocument();
  });

  it('does not open onboarding for signed-out visitors', async () => {
    fakeApi({ user: null });
    renderApp(<AppRoutes />);
    await screen.findByText('No public personalities available');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
