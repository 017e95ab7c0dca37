// Two tabs share one session cookie: when another tab signs in as someone else or signs out, or
// the session ends, this tab must stop showing (and acting for) the old account.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRoutes } from './app-routes';
import { renderApp } from '../test-support/render-app';
import { fakeApi } from '../test-support/fake-api';
import { ada, makePersonality, stubApi } from '../features/personalities/test-support/personalities-api-stub';
import { authChannelName, authStorageKey } from '../lib/auth-sync';

const bob = { id: 'user-bob', email: 'bob@example.com', displayName: 'bob' };

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(`kindred:onboarding-completed:${ada.id}`, 'true');
  localStorage.setItem(`kindred:onboarding-completed:${bob.id}`, 'true');
});
afterEach(() => vi.unstubAllGlobals());

const header = () => screen.getByRole('banner');
const headerUser = () => within(header()).queryByTestId('header-user');

/** Ada's tab, showing her private personality, with the Add Personality form open and half filled. */
async function adaTabWithFormOpen() {
  const api = stubApi({ viewer: ada, personalities: [makePersonality({ name: 'Ada Secret Notes' })] });
  const app = renderApp(<AppRoutes />, { path: '/' });
  expect(await screen.findByText('Ada Secret Notes')).toBeInTheDocument();
  await userEvent.setup().click(screen.getByRole('button', { name: 'Add Personality' }));
  await userEvent.setup().type(await screen.findByLabelText('Name'), 'Half-typed by Ada');
  expect(headerUser()).toHaveTextContent('ada');
  return { api, app };
}

/** The server as another tab left it: `viewer` signed in (or nobody), with these personalities. */
function switchAccount(api: ReturnType<typeof stubApi>, viewer: typeof bob | null, names: string[]) {
  api.setViewer(viewer);
  api.store.splice(0, api.store.length, ...names.map((name) => makePersonality({ name })));
}

function announceFromAnotherTab() {
  const channel = new BroadcastChannel(authChannelName);
  channel.postMessage({ from: 'another-tab' });
  channel.close();
}

describe('another tab changes the account', () => {
  it('signing in as someone else elsewhere switches this tab over: header, data, open form, and says so', async () => {
    const { api } = await adaTabWithFormOpen();
    switchAccount(api, bob, ['Bob Notes']);

    announceFromAnotherTab();

    await waitFor(() => expect(headerUser()).toHaveTextContent('bob'));
    expect(await screen.findByText('You signed in as bob@example.com in another tab.')).toBeInTheDocument();
    expect(await screen.findByText('Bob Notes')).toBeInTheDocument();
    expect(screen.queryByText('Ada Secret Notes')).toBeNull();
    // The half-filled form belonged to Ada: it is gone, not left to create a personality for Bob.
    expect(screen.queryByRole('button', { name: 'Create Personality' })).toBeNull();
    expect(screen.queryByDisplayValue('Half-typed by Ada')).toBeNull();
  });

  it('signing out elsewhere (storage event, no BroadcastChannel) shows this tab signed out, without the old data', async () => {
    vi.stubGlobal('BroadcastChannel', undefined);
    const { api, app } = await adaTabWithFormOpen();
    switchAccount(api, null, []);

    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: authStorageKey, newValue: 'another-tab:1' }));
    });

    // The screens start afresh (a new header too): look the header up again each time.
    await waitFor(() => expect(within(header()).getByRole('link', { name: 'Sign In' })).toBeInTheDocument());
    expect(await screen.findByText('You were signed out in another tab.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Ada Secret Notes')).toBeNull());
    expect(screen.queryByDisplayValue('Half-typed by Ada')).toBeNull();
    // Nothing fetched as Ada is left in the cache either.
    const cached = app.queryClient.getQueryCache().getAll().map((q) => JSON.stringify(q.state.data ?? null));
    expect(cached.join()).not.toContain('Ada Secret Notes');
  });

  it('an account deleted in another tab is said so (not "signed out"), with no Sign In offered', async () => {
    const { api } = await adaTabWithFormOpen();
    switchAccount(api, null, []);
    const channel = new BroadcastChannel(authChannelName);
    channel.postMessage({ from: 'another-tab', reason: 'deleted' });
    channel.close();
    expect(await screen.findByText('Your account was deleted in another tab.')).toBeInTheDocument();
    expect(screen.queryByText('You were signed out in another tab.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
    await waitFor(() => expect(screen.queryByText('Ada Secret Notes')).toBeNull());
  });

  it('looks again when the tab becomes visible', async () => {
    const { api } = await adaTabWithFormOpen();
    switchAccount(api, bob, ['Bob Notes']);

    act(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
    });

    await waitFor(() => expect(headerUser()).toHaveTextContent('bob'));
    expect(await screen.findByText('Bob Notes')).toBeInTheDocument();
    expect(screen.queryByText('Ada Secret Notes')).toBeNull();
  });
});

describe('the session ends', () => {
  it('a 401 from a mutation shows the signed-out toast (with Sign In) and the header switches to signed out', async () => {
    const api = stubApi({
      viewer: ada,
      override: (call) =>
        call.method === 'POST' && call.path === '/api/personalities'
          ? { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Authentication required' } } }
          : undefined,
    });
    const app = renderApp(<AppRoutes />, { path: '/' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add Personality' }));
    await user.type(await screen.findByLabelText('Name'), 'Hypatia');
    api.setViewer(null); // the session expired meanwhile
    await user.click(screen.getByRole('button', { name: 'Create Personality' }));

    expect(await screen.findByText('You were signed out. Sign in again to continue.')).toBeInTheDocument();
    await waitFor(() => expect(within(header()).getByRole('link', { name: 'Sign In' })).toBeInTheDocument());
    expect(screen.getAllByText('You were signed out. Sign in again to continue.')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(app.location()).toBe('/auth'));
  });

  it('a 401 while signed out is only a refusal: no signed-out toast', async () => {
    stubApi({
      viewer: null,
      override: (call) =>
        call.path === '/api/personalities'
          ? { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Authentication required' } } }
          : undefined,
    });
    renderApp(<AppRoutes />, { path: '/' });
    await within(header()).findByRole('link', { name: 'Sign In' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('You were signed out. Sign in again to continue.')).toBeNull();
  });
});

describe("this tab's own sign-out", () => {
  it('is not reported as news from another tab', async () => {
    fakeApi({ user: { id: ada.id, email: ada.email, displayName: ada.displayName } });
    const app = renderApp(<AppRoutes />, { path: '/' });
    await userEvent.setup().click(await within(header()).findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(app.location()).toBe('/auth'));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/signed out/)).toBeNull();
  });
});
